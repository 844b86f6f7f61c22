/** What the participant figures mean and what limits them, printed under the suite's table. */
export const PARTICIPANTS_READING = `### Reading the participant figures

\`npm run bench -- participants\` starts one \`tyche serve\` per store on a fresh database, adds
a million participants to one verifiable giveaway in JSON calls of 10 000 (timed one by one at
the client), exports that list as CSV and seals it (a local drand relay), then sends a million
more to a second giveaway as one CSV upload made while it is sent (34.5 MiB; the client never
holds it whole either), and reads the server's peak RSS meanwhile. Then, on another fresh
database, the store alone writes the same rows — salts and leaf hashes made beforehand, untimed —
10 000 to a transaction through the bare driver: what the database itself does here.
\`BENCH_PARTICIPANTS\` makes a smaller run.

**Before and after**, the same bench run back to back on the same machine (load average about 2),
the code before these changes in a copy of the tree, then this one:

| measure | before | after |
|---|---|---|
| SQLite, JSON calls | 23 075 rows/s; first 100 000 in 3.08 s, last in 4.27 s | 27 010 rows/s; 1.78 s, then 3.86 s |
| SQLite, one upload | 29 983 rows/s, RSS +102 MB | 38 565 rows/s, RSS +22 MB |
| PostgreSQL, JSON calls | 29 462 rows/s; 3.40 s, then 3.93 s | 42 268 rows/s; 2.03 s, then 2.52 s |
| PostgreSQL, one upload | 26 022 rows/s | 31 155 rows/s |
| PostgreSQL seal / SQLite seal | 26 783 ms / 795 ms = 33.7 × | 954 ms / 1 123 ms = 0.85 × |
| PostgreSQL export / SQLite export | 9.06 s / 0.69 s = 13.1 × | 1.75 s / 0.85 s = 2.06 × |

SQLite's seal and export move by a third between runs of the same code (1 123–1 202 ms and
0.85–1.12 s in two runs after); the index pages they read are the same in number either way, and
read alone as fast (a million leaf hashes in order in 103–105 ms).

**What changed.** On PostgreSQL each batch is written in leaf-hash order: the insert costs the
same (backend CPU 15.3 s against 15.1 s a million), but rows of a batch then lie in the table in
leaf order, which the seal's read finds together. SQLite wrote its batches in leaf order too for a
while (the rows then walk the leaf-hash index once instead of landing all over it: 50–55 → 65–66
thousand rows per CPU-second in the store alone, \`process.cpuUsage\`, 300 000 rows), but the seal
then read that index three fifths slower, measured side by side on this machine (a million:
2.14–2.15 s against 1.22–1.23 s, seeding time unchanged), so SQLite writes a batch as it comes.
A salt's and a
leaf's hex come from \`crypto.hash(…, 'hex')\` over one reused buffer instead of bytes and hex
built by hand: 3 µs → 0.4 µs of CPU an entrant. An upload is checked and stored in one pass over
its file instead of a check pass and then a store pass (each about 1.5 s of CPU a million); a
line at fault still stores nothing (the transaction rolls back), an upload that may name more
than a million (more line ends than that) is still checked first, and an upload at fault is
still answered with its faults before the giveaway's state or owner. On PostgreSQL the entry
that finds the table twice the size its last \`ANALYZE\` counted analyzes it in its own
transaction (five times on the way to a million): with statistics from an emptier table
PostgreSQL expected a few thousand rows for the giveaway and answered every page of the seal's
ordered read and of the export by scanning and sorting the whole list (0.3–0.4 s a page), which
is what made the seal 34 times and the export 13 times SQLite's. The export reads PostgreSQL's
rows as rows rather than one JSON text per page (its JSON aggregation cost the server more:
in-process, a million in 1.3 s as JSON against 1.0 s as rows).

**Where the time goes now, and what is not met.** Neither store reaches 100 000 rows/s here, and
SQLite's calls are not flat; what stands in the way is the table's own indexes. Two of them take
each row at a random place: the primary key (the Telegram id) and the leaf-hash index, which
with 64-character keys is the largest (85 MB at a million on SQLite). Each 10 000-row commit on
SQLite wrote 775 pages to the WAL at the start, 3 400 at 100 000 and 14 700 at a million
(counted with \`wal_checkpoint\` after each commit), each also copied back at the checkpoint; the
number grows until nearly every row dirties a page of its own, so the calls slow down as the
table grows. Without the leaf-hash index the store alone wrote 4 600 pages a commit at a million
and about 70 000 rows per CPU-second instead of 35 000–41 000; on PostgreSQL 48 000 rows/s instead of 31 000.
But that index is what the seal, the proofs, the public entrants pages and the ticket lookups
read in leaf order, so it stays. In the server's CPU profile on SQLite, 72% of the time is
SQLite's insert; on PostgreSQL the server is mostly idle and the backend spends two thirds of
its time in B-tree inserts and 14% checking the foreign key to the giveaway, row by row.

Evaluated and not used: \`COPY\` (pg-copy-streams) instead of the array insert, 29 700 against
31 500 rows/s, backend CPU 11% lower, but it needs the raw connection of a Kysely transaction
and a new dependency; a \`WITHOUT ROWID\` table keyed by the Telegram id, 26 600 pages a commit at
a million instead of 14 800 and two fifths more CPU (every row then lands at random with all its
columns); a page cache of 64–256 MB, about 7% less CPU and the same pages written (the memory
stays resident); single-row statements instead of multi-row ones, which spare SQLite its statement
journal (1.7 temp-file writes a row) but cost as much in calls. Tried later on the store alone
(a million, 10 000 to a transaction, side by side): SQLite pages of 1, 2, 8 and 16 KiB instead of
4 (18 700, 22 100, 25 000 and 23 400 rows/s against 23 300–25 900; the last 100 000 took 4.6–7.0 s
in every case, so smaller pages only add pages to touch), a rollback journal in memory instead of
the WAL (no faster, and not durable), and a WAL checkpointed every 100 000 pages instead of every
1 000 (no change). A PostgreSQL call of 10 000 through the service, against a store of a million:
280–530 ms, of which the insert statement 187–208 ms in the database, the ids' duplicate check
14–15 ms, the arrays' bind 17–22 ms, and the server's own CPU 84–193 ms. Outside these files, two
settings of the SQLite connection would help: \`temp_store = MEMORY\` keeps that statement
journal in memory (10% less CPU measured), and a checkpoint run apart from the committing call
would take the copy-back (a quarter to a third of the store's time at a million) off the
calls.

**The PostgreSQL export.** Each entrant's line of the report up to \`is_winner\` is stored as it
joins (\`csv_cells\`, made by the code that formats SQLite's rows in the process), and the covering
index holds it in place of the two names: a page of 5 000 rows comes back as one text joined from
stored lines, so the server allocates a text a page instead of an object and four values a row.
Until then the database formatted each line at export time (to_char for the time, a regular
expression per name). In one pass over a million rows, psql timed that at 2.2–2.8 s, and the
stored lines read along the index at 0.63 s. Cheaper spellings were tried first and saved
nothing in the full expression: \`like\` instead of the regular expressions, the timestamp's text
instead of to_char. The store alone exported a million, after a \`VACUUM\`, three times each,
side by side: 1.12–1.25 s against 2.45–2.56 s.

The price is paid at entry: each row carries about 60 bytes more, in the table and in the
index. The store alone wrote 24 800–25 200 rows/s against 27 500–28 900, two runs each, side by
side. Formatting in the database at entry, in the insert statement, cost as much. A generated
column calling an SQL function cost a third. SQLite keeps formatting in the process: storing the
text there cost its bulk entry a quarter (16 000 against 20 900 rows/s, the store alone). Rows
from before the change get their cells from migration 022. Rows that a process of the previous
version inserts during a rolling restart get theirs from a trigger, which does nothing for a
row that arrives with its cells.

The whole bench, back to back on the same machine in a slow hour, before and after the stored
lines (both with the plain bounds below):

| measure | before | after |
|---|---|---|
| PostgreSQL export of a million, end to end | 3.59 s | 2.69 s |
| SQLite export of a million (code unchanged) | 2.78 s | 2.10 s |
| PostgreSQL export / SQLite export | 1.29 × | 1.28 × |
| PostgreSQL, JSON calls | 21 413 rows/s | 18 844 rows/s |
| PostgreSQL, one upload | 16 557 rows/s | 13 887 rows/s |

End to end the export gains a quarter, not half: the server's writing and the client's reading
share the machine's two cores with the database. Two pages are read at once on two connections,
the next page's end read first from the index. The store alone exported a million so in
1.15–1.31 s, against 1.29–1.35 s a page at a time, three times each (while the database still
formatted the lines: 1.33–1.73 s against 1.99–2.31 s). SQLite stays faster: its rows are read in
the same process, without a protocol between.

**The SQLite export, as arrays** (2026-11-28). A SQLite page used to leave the database as one
JSON text of its rows, parsed in the process. V8's \`JSON.parse\` keeps every string it parses of up
to ten characters in its table of unique strings, and every Telegram id is one; only a full
collection empties that table. A server grew by 36 MB exporting two million rows and by 125 MB
exporting ten million, all of it garbage (a full collection forced after the export took the
heap back to its start). node:sqlite now hands a page's rows over as arrays of their column values.
Read alone, two million rows left 1 MB in the old space instead of 41 MB and took 0.9 s instead of
1.2 s. A freshly started server grew by 7–9 MB exporting two million and by 6 MB exporting ten
million, which took 10.9 s instead of 11.3–15.3 s. The same tracing found that the export held the
event loop. SQLite answers in the same turn, and a fast client takes each page as it is written,
so an export ran as one chain of callbacks: a health check sent during an export of two million
waited 3.3 s for its answer. The report now lets the event loop run between pages; the health
check then waited 43 ms at most.

In the table above the SQLite export of a million took 1.06 s and PostgreSQL's 1.74 s (1.28 s
and 1.84 s in the run before, on an Intel Xeon machine), so their ratio, 1.64, is no longer
within 1.5: SQLite got faster, PostgreSQL did not get slower. The pieces below make PostgreSQL's
export slower again (12–20% side by side at two million), after this table was measured. Read in the process alone, each store exports two million in 1.4 s;
over HTTP the PostgreSQL backend, the server and the client share the two cores.

**What held PostgreSQL's export** (2026-11-28). A server grew by about 110 MB exporting two
million rows, garbage that a full collection returned. It was the driver's promise form, and the
earlier reading that it was not the driver was wrong: read in the process alone, two million
rows moved 125 MB to the old space. pg answers a query made without a callback
through a promise of its own, and every text answered that way outlived two young-generation
collections and went to the old space: 2 000 answers of 60 KB in a row moved 96–101 MB there,
against 1.2 MB for the same queries made with a callback (\`--trace-gc-nvp\`; V8's sampling heap
profiler put the kept bytes at pg's \`toString\` of each answer). Kysely makes every query without
one. The pool now hands Kysely's statements to pg with a callback and answers through a promise
of its own (\`store/postgres.ts\`). A page of 5 000 rows, one text of about 320 KB, still went to
V8's large-object space, which only a full collection empties: five exports of two million from
one freshly started server grew it by 77–86 MB. A page now comes in five pieces of 1 000 rows,
about 62 KB each: where they end is read first from the index, in one recursive statement, and
the page as one union of five ranges, a text each. Five exports then grew the server by 20–21 MB
and took 12.9 s against 10.8–11.6 s: planning the union costs the database about 0.9 ms more a
page and reading the ends 0.6 ms more (its statement log over 400 pages). Two other ways to find
the pieces cost more: numbering a page's rows with \`row_number()\` (3.2 ms a page against
1.5 ms), and cutting one text with \`substr\` (13 ms against 3.3 ms).

**Right after a bulk entry** PostgreSQL's index-only reads still visit the table for every row,
until a VACUUM sets the visibility map (autovacuum does, where it runs): a \`VACUUM\` of 0.4 s made
the seal's read of a million 0.38 s instead of 0.7–0.9 s. Without that map, PostgreSQL also
chose a different plan for the export: it estimated a page's row-value range at about 110 000
rows of a million, and then scanned and sorted the whole table for every page. That took
0.2–0.27 s a page and 20–30 s an export, on the store alone, with or without the stored lines. A page now names
its seconds again as plain bounds, which PostgreSQL estimates from the index's statistics, and
it reads the page along the index: 2.0–3.5 s.

**One slow upload, and its likely cause.** In a run on an AMD EPYC machine the same day, the
PostgreSQL upload of a million took 168 s (5 950 rows/s), where the two runs of the same code
before it took 60–72 s and a run of 300 000 right after it 14 720 rows/s. Each batch of an upload
first asks which of its ids already joined. PostgreSQL planned that question for the giveaway's
id, by that giveaway's share of the table at the last ANALYZE, and a giveaway it has not seen
(an upload, whose rows all arrive in one transaction, or a second large giveaway in a large
table) it expects to hold a row or so. It may then read the giveaway's every row for each batch
instead of probing the primary key once per id: in psql, 10 000 ids against 300 000 rows of an
upload not yet committed took 185 ms as a hash of the giveaway's rows against 22 ms probing, and
that share grows with every batch the upload has stored. Whether that plan is chosen depends on
when the table was last analyzed, which would explain one slow run in several. The ids now probe
the key in a lateral subquery, with the giveaway's id given as a subquery's value, unknown when
planning, so the plan no longer depends on what the statistics saw (asked per id with the id
known, PostgreSQL walked the smaller \`(giveaway_id, entry_number)\` index for each id instead).
A store test counts it in the transaction's own statistics: 101 index scans and 50 rows read for
101 ids against 6 000 rows the statistics never saw, where the old statement made one scan of
all 6 000. On an Intel Xeon machine, back to back, the old code uploaded at
23 851 rows/s and the new at 24 299: there the old statement happened to probe too.

**The upload** is written to a file as it arrives, then read once and stored in one transaction,
10 000 at a time; its rate covers the transfer, the check and the store. Its peak RSS growth,
22–55 MB for 34.5 MiB of body, is the server's working set (one 1 MiB read of the file, one batch
and its statements, the garbage between collections); nothing in the path holds more than a
batch. On SQLite the write-ahead log grows to about the size the upload adds to the database
(313 MB for a million, measured before these changes, which do not touch it) and keeps that
size on disk while the server runs.
`;
