import { appendFileSync } from 'node:fs';
import net from 'node:net';

/**
 * Preloaded (`node --import`) into a tool the tests run, to show it stays offline: every
 * attempt to connect anywhere but loopback is written to TYCHE_NETWORK_LOG and refused.
 */
const log = process.env.TYCHE_NETWORK_LOG;
const connect = net.Socket.prototype.connect;
const LOOPBACK = /^(127\.|::1$|localhost$)/;

net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
  const first = args[0] as { host?: string; path?: string } | number | string;
  const host =
    typeof first === 'object' && first !== null
      ? first.path
        ? 'unix'
        : (first.host ?? 'localhost')
      : args[1];
  if (host !== 'unix' && !LOOPBACK.test(String(host ?? 'localhost'))) {
    if (log) appendFileSync(log, `${String(host)}\n`);
    throw new Error(`network access to ${String(host)} refused in tests`);
  }
  return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
} as typeof net.Socket.prototype.connect;
