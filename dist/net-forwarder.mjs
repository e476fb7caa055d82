// The first program of the agent's own network namespace (os/network.ts), started as the
// namespace's root before the command's user switch: on the loopback bubblewrap brought up, it
// listens on 127.0.0.1 at each mapped port and relays every connection to a unix socket of the
// loop's (bound into the command's view), then runs the command and exits with its status. The
// namespace has no other way out: what the command reaches is what the loop serves on those sockets.
//
//   node net-forwarder.mjs PORT=SOCKET … -- COMMAND [ARG …]
//
// Signals: the command shares this process's group, so the
// loop's SIGTERM reaches it directly; this process ignores it and ends when the command ends.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

/** The arguments parsed, or a message saying what is wrong. */
export function parseArgs(argv) {
  const end = argv.indexOf('--');
  if (end < 1 || end === argv.length - 1) return { error: 'usage: net-forwarder PORT=SOCKET … -- COMMAND [ARG …]' };
  const maps = [];
  for (const m of argv.slice(0, end)) {
    const at = m.indexOf('=');
    const port = Number(m.slice(0, at));
    if (at < 1 || !Number.isInteger(port) || port < 1 || port > 65535 || !m.slice(at + 1).startsWith('/')) return { error: `not PORT=/SOCKET: ${m}` };
    maps.push({ port, socket: m.slice(at + 1) });
  }
  return { maps, command: argv.slice(end + 1) };
}

/** Listens on 127.0.0.1:port and pipes each connection to the unix socket; resolves once listening. */
export function relay(port, socket) {
  const server = net.createServer((inside) => {
    const outside = net.connect(socket);
    inside.pipe(outside).on('error', () => inside.destroy());
    outside.pipe(inside).on('error', () => outside.destroy());
    inside.on('error', () => outside.destroy());
    outside.on('error', () => inside.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  if (a.error) {
    process.stderr.write(`phuc-net-forwarder: ${a.error}\n`);
    process.exit(2);
  }
  const servers = await Promise.all(a.maps.map((m) => relay(m.port, m.socket)));
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => undefined);
  const child = spawn(a.command[0], a.command.slice(1), { stdio: 'inherit' });
  child.on('error', (e) => {
    process.stderr.write(`phuc-net-forwarder: ${a.command[0]}: ${e.message}\n`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => {
    for (const s of servers) s.close();
    process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0));
  });
}

// Run as a program; imported (by its tests), it only exports.
if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
