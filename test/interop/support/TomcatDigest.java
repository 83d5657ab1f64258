// Tomcat 10.1's DigestAuthenticator on loopback, for the digest interoperability suite. Run as a
// single-file source program: java -cp <Debian's tomcat10 jars> TomcatDigest.java <nonce validity ms>...
// One context per nonce validity, at /c0, /c1, ... on one connector. The user and password come from
// DIGEST_USER and DIGEST_PASSWORD, the realm from DIGEST_REALM, Tomcat's working directory from
// DIGEST_WORK_DIR (the caller removes it). Prints "listening <port>", then
// "request <index> <method> <target> <status> <nonce> <nc>" per request once it has been answered, the
// nonce and the count (hex) being those its Authorization header signed with, "-" for a request without.
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.security.Principal;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.catalina.Context;
import org.apache.catalina.authenticator.DigestAuthenticator;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.realm.GenericPrincipal;
import org.apache.catalina.realm.RealmBase;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.valves.ValveBase;
import org.apache.tomcat.util.descriptor.web.LoginConfig;
import org.apache.tomcat.util.descriptor.web.SecurityCollection;
import org.apache.tomcat.util.descriptor.web.SecurityConstraint;

public class TomcatDigest {
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

  /** One user with the role "user", password in clear (the authenticator hashes it with the realm). */
  static class OneUser extends RealmBase {
    final String user;
    final String password;

    OneUser(String user, String password) {
      this.user = user;
      this.password = password;
    }

    @Override
    protected String getPassword(String name) {
      return user.equals(name) ? password : null;
    }

    @Override
    protected Principal getPrincipal(String name) {
      return user.equals(name) ? new GenericPrincipal(name, List.of("user")) : null;
    }
  }

  /** Logs each request after the rest of the pipeline (the authenticator included) has answered it. */
  static class RequestLog extends ValveBase {
    static final Pattern NONCE = Pattern.compile("[\\s,]nonce=\"([^\"]*)\"");
    static final Pattern NC = Pattern.compile("[\\s,]nc=([0-9A-Fa-f]+)");

    static String field(Pattern pattern, String authorization) {
      if (authorization == null) return "-";
      Matcher m = pattern.matcher(authorization);
      return m.find() ? m.group(1) : "-";
    }

    RequestLog() {
      super(true);
    }

    @Override
    public void invoke(Request req, Response res) throws IOException, ServletException {
      try {
        getNext().invoke(req, res);
      } finally {
        String query = req.getQueryString();
        String target = req.getRequestURI() + (query == null ? "" : "?" + query);
        String context = req.getContextPath();
        String index = context.startsWith("/c") ? context.substring(2) : "?";
        String authorization = req.getHeader("Authorization");
        System.out.println(
            "request " + index + " " + req.getMethod() + " " + target + " " + res.getStatus() + " "
                + field(NONCE, authorization) + " " + field(NC, authorization));
      }
    }
  }

  public static void main(String[] args) throws Exception {
    String user = System.getenv("DIGEST_USER");
    String password = System.getenv("DIGEST_PASSWORD");
    String realm = System.getenv("DIGEST_REALM");
    File base = new File(System.getenv("DIGEST_WORK_DIR"));
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(base.getAbsolutePath());
    tomcat.setHostname("127.0.0.1");
    tomcat.setPort(0);
    tomcat.getConnector().setProperty("address", "127.0.0.1");
    tomcat.getHost().getPipeline().addValve(new RequestLog());
    for (int i = 0; i < args.length; i++) {
      Context context = tomcat.addContext("/c" + i, base.getAbsolutePath());
      Tomcat.addServlet(context, "api", new Api()).addMapping("/*");
      context.setRealm(new OneUser(user, password));

      LoginConfig login = new LoginConfig();
      login.setAuthMethod("DIGEST");
      login.setRealmName(realm);
      context.setLoginConfig(login);
      context.addSecurityRole("user");
      SecurityCollection everything = new SecurityCollection();
      everything.addPattern("/*");
      SecurityConstraint constraint = new SecurityConstraint();
      constraint.addAuthRole("user");
      constraint.addCollection(everything);
      context.addConstraint(constraint);

      DigestAuthenticator authenticator = new DigestAuthenticator();
      authenticator.setNonceValidity(Long.parseLong(args[i]));
      context.getPipeline().addValve(authenticator);
    }
    tomcat.start();
    System.out.println("listening " + tomcat.getConnector().getLocalPort());
    tomcat.getServer().await();
  }
}
