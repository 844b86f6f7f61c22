import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, freemem, platform, release, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { HOW_IT_SCALES } from './how-it-scales.ts';
import { benchLogVerify, LOG_VERIFY_READING } from './log-verify.bench.ts';
import { benchMemory, MEMORY_READING } from './memory.bench.ts';
import { benchParticipants, PARTICIPANTS_READING } from './participants.bench.ts';
import { benchRandomEndpoints, RANDOM_READING } from './random.bench.ts';
import type { BenchResult } from './result.ts';
import { benchSeal, SEAL_READING } from './seal.bench.ts';
import { benchConditionSeal, CONDITION_SEAL_READING } from './seal-conditions.bench.ts';
import { benchSoak, SOAK_READING } from './soak.bench.ts';
import { benchTenMillion, TEN_MILLION_READING } from './ten-million.bench.ts';

/** `reading`: what the figures mean and what limits them, printed under the suite's table. */
type Suite = { title: string; run: () => Promise<BenchResult[]>; reading?: string };

const suites: Suite[] = [
  {
    title: 'Random endpoints: full stack against a framework-free reference',
    run: benchRandomEndpoints,
    reading: RANDOM_READING,
  },
];

const giveawaysBench = new URL('./giveaways.bench.ts', import.meta.url);
if (existsSync(fileURLToPath(giveawaysBench))) {
  const module = (await import(giveawaysBench.href)) as { benchGiveaways?: () => Promise<BenchResult[]> };
  if (module.benchGiveaways)
    suites.push({ title: 'Giveaways: draw, CSV export, participant insert', run: module.benchGiveaways });
}
suites.push({
  title: 'Participants: bulk entry in JSON calls and one upload',
  run: benchParticipants,
  reading: PARTICIPANTS_READING,
});
suites.push({ title: 'Verifiable draws: seal and draw', run: benchSeal, reading: SEAL_READING });
suites.push({
  title: 'Channel conditions: the re-check before the seal',
  run: benchConditionSeal,
  reading: CONDITION_SEAL_READING,
});
suites.push({ title: 'Soak: ten minutes of mixed load', run: benchSoak, reading: SOAK_READING });
suites.push({
  title: 'Memory: idle, after a million entrants, after the mix',
  run: benchMemory,
  reading: MEMORY_READING,
});
suites.push({
  title: 'Ten million entrants',
  run: benchTenMillion,
  reading: TEN_MILLION_READING,
});
suites.push({
  title: 'Transparency log: tyche log verify',
  run: benchLogVerify,
  reading: LOG_VERIFY_READING,
});

// `npm run bench -- seal` runs the suites whose title contains "seal"; with `--write` their
// sections replace their own in docs/benchmarks.md. A run of every suite rewrites the whole file.
const args = process.argv.slice(2);
const only = args.find((arg) => !arg.startsWith('--'));
const write = !only || args.includes('--write');
const cpu = cpus();
const machine = `${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM (${(freemem() / 2 ** 30).toFixed(0)} GiB free at start), ${platform()} ${release()}, Node ${process.version}`;
const today = new Date().toISOString().slice(0, 10);

/** `log-verify` and `log verify` name the same suite. */
const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');

const sections: { title: string; text: string }[] = [];
for (const suite of suites) {
  if (only && !slug(suite.title).includes(slug(only))) continue;
  process.stderr.write(`bench: ${suite.title}\n`);
  const results = await suite.run();
  for (const r of results)
    process.stderr.write(
      `  ${r.met ? 'met ' : 'MISS'} ${r.name}: ${r.value} ${r.unit} (target ${r.target})\n`,
    );
  const rows = results.map(
    (r) =>
      `| ${r.name} | ${r.value} ${r.unit} | ${r.target} | ${r.met ? 'met' : '**not met**'} | ${r.notes ?? ''} |`,
  );
  // A section measured apart from the others says when and where: the header may not.
  const alone = only ? `Measured alone (\`npm run bench -- ${only}\`) on ${today}: ${machine}.\n\n` : '';
  const reading = suite.reading ? `\n${suite.reading}` : '';
  sections.push({
    title: suite.title,
    text: `## ${suite.title}\n\n${alone}| measure | result | target | | notes |\n|---|---|---|---|---|\n${rows.join('\n')}\n${reading}`,
  });
}

/**
 * `doc` with `section` in place of the section of the same title, or, when it has none, before
 * the first reading section (else at the end).
 */
function spliceSection(doc: string, section: { title: string; text: string }): string {
  const heading = `## ${section.title}\n`;
  const start = doc.indexOf(heading);
  if (start !== -1) {
    const next = doc.indexOf('\n## ', start + heading.length);
    const rest = next === -1 ? '' : `\n${doc.slice(next + 1)}`;
    return `${doc.slice(0, start)}${section.text}${rest}`;
  }
  const reading = doc.indexOf('\n## Reading');
  if (reading === -1) return `${doc.trimEnd()}\n\n${section.text}`;
  return `${doc.slice(0, reading + 1)}${section.text}\n${doc.slice(reading + 1)}`;
}

const target = new URL('../docs/benchmarks.md', import.meta.url);
const doc = only
  ? sections.reduce(spliceSection, existsSync(target) ? readFileSync(target, 'utf8') : '# Benchmarks\n')
  : `# Benchmarks

Measured by \`npm run bench\` on ${today}: ${machine}.
Load comes from autocannon in the benchmark process; every server under test runs in a process of
its own on 127.0.0.1. Figures compared with each other were measured side by side in the same run.
Numbers from a shared 2-core machine move by ±20% between runs; read ratios rather than absolutes.

${sections.map((section) => section.text).join('\n')}
${HOW_IT_SCALES}`;
if (write) writeFileSync(target, doc);
process.stdout.write(only ? sections.map((section) => section.text).join('\n') : doc);
