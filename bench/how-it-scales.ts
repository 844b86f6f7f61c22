// The closing section of docs/benchmarks.md: not measured by one suite but read from all of them,
// so a run of every suite writes it as it is, and a run of one suite leaves it in place.

export const HOW_IT_SCALES = `## How it scales

Read from the sections above, measured on 2-core machines (AMD EPYC or Intel Xeon, as each run
was given) on 2026-11-27 and 2026-11-28; each section names its machine.

**With entrants.** Adding them costs what the database spends on the two indexes every entrant
lands in at a random place (its leaf hash, which the seal, proofs and entrant pages read by, and
its Telegram id): 21 500–27 000 rows/s on SQLite and 32 000–42 000 on PostgreSQL through the API,
slowing on SQLite (the last 100 000 of a million take 2.2–2.6 times the first) because each
commit writes, and each checkpoint copies back, more pages of those two indexes as they grow
(775 pages a commit of 10 000 at the start, 14 700 at a million); a larger page cache, other page
sizes and a checkpoint on a thread of its own do not make it flat. The seal grows linearly and is
streamed: about 1.2 s per million entrants, 9.7–10.7 s for ten million, with only the chunk roots
held (2.5 MB at ten million). The draw, a proof and a receipt do not grow with the list: a
winner's or an entrant's proof reads its one chunk of 256 leaf hashes, and the levels above are
hashed once per seal in each process. The CSV export grows linearly in bounded memory: about
0.83–0.94 million rows/s on SQLite and 0.58 on PostgreSQL, at a million and at ten million, the
server 0–6 MB above its start at ten million. The server's memory stays within 0.5 GB at ten
million entrants.

**With requests per second.** One SQLite process served about half of what a framework-free
reference served beside it (0.35–0.53 in four runs; single rounds 0.34–0.62), whatever the
machine's own speed (7 500 requests/s of \`/random/int?count=100\` where the reference served 15 200, 3 400 where it
served 7 000); the daily limit is counted in blocks leased per process, the records of
concurrent requests are written in one commit, and a key this process knows is taken from memory
with its revocation and plan read in that commit, so no request waits on a row another holds and
a random request costs one round trip. One PostgreSQL process served 0.60–0.68 of one SQLite
process: per request its server spends 0.36–0.40 ms of CPU against SQLite's 0.28–0.35 ms (the
pg protocol, a batch handed over and answered), and its database 0.09–0.10 ms on the same two
cores.

**With processes.** Processes on one PostgreSQL share no state but the database: the daily limit
stays exact across them and any process runs any job. On two cores shared by the servers, the
database and the load generator, a second process added little or nothing (0.75–1.09 of one). One
process left the machine 70–73% busy; two made it 92–95% busy, but the servers spent 51–63% more
CPU per request between them: the same ten clients split over two processes make batches of
about 2.4 requests instead of 5, so twice the commits, each with its round trip and wake-ups.
With 40 clients two processes served 0.99–1.27 of one: one process already uses the one core
it can, the second finds the third of a core left beside the database and the load generator,
and loses about that much to smaller batches. With the database and the clients on machines of
their own, each process would have a core; that is not measured here.

**Where the next limits are.** Bulk entry: the leaf-hash index (without it SQLite's own insert
roughly doubles); kept as 32 bytes rather than 64 hex characters, it wrote 27% fewer pages per
commit at 500 000 rows and the store alone ran 17% faster in a trial (a migration and every
leaf reader to change; not done). Requests on PostgreSQL: CPU — per request the server spends about 0.25 ms and the
database's backends 0.07 ms (measured on the machine where SQLite's server spends 0.155 ms), and
handing each batch to the database (a \`writev\` that wakes a backend) is a tenth of the server's
profile. Receipts on PostgreSQL under load: four queries each (key, entrant, chunk and
timestamps) and a share of one grouped count write. The idle process: about 60 MB above Node's own floor, most of it
the HTTP stack with its compiled schemas and the service's code.
`;
