// The draw's round lookups are the one drand client (drand-client.ts), under the names the
// giveaways, their tests and the benchmarks import.
export {
  createDrandClient as createDrandRounds,
  type DrandClient as DrandRounds,
  type VerifiedRound,
} from './drand-client.ts';
