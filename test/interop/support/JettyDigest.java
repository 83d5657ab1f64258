// Jetty 9.4's DigestAuthenticator on loopback, for the digest interoperability suite. Run as a
// single-file source program: java -cp <Debian's jetty9 jars> JettyDigest.java <max nonce age ms>...
// One connector per nonce age, each serving at the root context, as Ops Manager does (its challenge
// then reads domain=""). The user and password come from DIGEST_USER and DIGEST_PASSWORD, the realm from
// DIGEST_REALM. Prints "listening <index> <port>" per connector, then "request <index> <method> <target>
// <status>" per request once it has been answered.
import java.io.IOException;
import java.io.InputStream;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.security.ConstraintMapping;
import org.eclipse.jetty.security.ConstraintSecurityHandler;
import org.eclipse.jetty.security.HashLoginService;
import org.eclipse.jetty.security.UserStore;
import org.eclipse.jetty.security.authentication.DigestAuthenticator;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.HandlerList;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import org.eclipse.jetty.util.security.Constraint;
import org.eclipse.jetty.util.security.Password;

public class JettyDigest {
  /** GET answers {"ok":true}; any other method echoes the method and how many body bytes it read. */
  static class Api extends HttpServlet {
    @Override
    protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
      String body;
      if (req.getMethod().equals("GET")) {
        body = "{\"ok\":true}\n";
      } else {
        long bytes = 0;
        try (InputStream in = req.getInputStream()) {
          while (in.read() >= 0) bytes += 1;
        }
        body = "{\"ok\":true,\"method\":\"" + req.getMethod() + "\",\"bytes\":" + bytes + "}\n";
      }
      res.setContentType("application/json");
      res.getWriter().write(body);
    }
  }

  public static void main(String[] args) throws Exception {
    String user = System.getenv("DIGEST_USER");
    String password = System.getenv("DIGEST_PASSWORD");
    String realm = System.getenv("DIGEST_REALM");
    Server server = new Server();
    HandlerList handlers = new HandlerList();
    ServerConnector[] connectors = new ServerConnector[args.length];
    for (int i = 0; i < args.length; i++) {
      ServerConnector connector = new ServerConnector(server);
      connector.setHost("127.0.0.1");
      connector.setPort(0);
      connector.setName("c" + i);
      server.addConnector(connector);
      connectors[i] = connector;

      ServletContextHandler context = new ServletContextHandler(ServletContextHandler.SECURITY);
      context.setContextPath("/");
      context.setVirtualHosts(new String[] {"@c" + i});
      context.addServlet(new ServletHolder(new Api()), "/*");

      Constraint constraint = new Constraint(Constraint.__DIGEST_AUTH, "user");
      constraint.setAuthenticate(true);
      constraint.setRoles(new String[] {"user"});
      ConstraintMapping mapping = new ConstraintMapping();
      mapping.setPathSpec("/*");
      mapping.setConstraint(constraint);

      UserStore users = new UserStore();
      users.addUser(user, new Password(password), new String[] {"user"});
      HashLoginService login = new HashLoginService(realm);
      login.setUserStore(users);

      DigestAuthenticator authenticator = new DigestAuthenticator();
      authenticator.setMaxNonceAge(Long.parseLong(args[i]));
      ConstraintSecurityHandler security = new ConstraintSecurityHandler();
      security.addConstraintMapping(mapping);
      security.setAuthenticator(authenticator);
      security.setLoginService(login);
      security.setRealmName(realm);
      context.setSecurityHandler(security);
      handlers.addHandler(context);
    }
    server.setHandler(handlers);
    server.setRequestLog((req, res) -> {
      String query = req.getQueryString();
      String target = req.getRequestURI() + (query == null ? "" : "?" + query);
      String name = req.getHttpChannel().getConnector().getName();
      System.out.println(
          "request " + name.substring(1) + " " + req.getMethod() + " " + target + " " + res.getCommittedMetaData().getStatus());
    });
    server.start();
    for (int i = 0; i < connectors.length; i++) {
      System.out.println("listening " + i + " " + connectors[i].getLocalPort());
    }
    server.join();
  }
}
