/**
 * Loopback ports for the tests of several servers: a run of consecutive free ports, one held by
 * someone else, and whether a port takes connections.
 */
import * as net from "node:net";

function listen(port: number): Promise<net.Server | undefined> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once("error", () => resolve(undefined));
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

function close(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * `count` consecutive ports, each held here until the caller closes it: the first found free with
 * all the ports after it free too.
 */
export async function holdPortRun(count: number): Promise<{ first: number; held: net.Server[] }> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = await listen(0);
    if (!first) continue;
    const base = (first.address() as net.AddressInfo).port;
    const held = [first];
    for (let i = 1; i < count; i++) {
      const next = base + i > 65535 ? undefined : await listen(base + i);
      if (!next) break;
      held.push(next);
    }
    if (held.length === count) return { first: base, held };
    await Promise.all(held.map(close));
  }
  throw new Error(`no ${count} consecutive free ports on 127.0.0.1`);
}

/** `count` consecutive ports free now: held, then let go. */
export async function freePortRun(count: number): Promise<number> {
  const { first, held } = await holdPortRun(count);
  await Promise.all(held.map(close));
  return first;
}

/** Two consecutive ports: the first free, the second held here (close `holder` after). */
export async function secondPortHeld(): Promise<{ first: number; holder: net.Server }> {
  const { first, held } = await holdPortRun(2);
  await close(held[0]!);
  return { first, holder: held[1]! };
}

/** Closes a server of {@link secondPortHeld}. */
export function release(server: net.Server): Promise<void> {
  return close(server);
}

/** Whether something on 127.0.0.1 takes a connection at `port`. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
