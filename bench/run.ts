import { existsSync, writeFileSync } from 'node:fs';
import { cpus, freemem, platform, release, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchRandomEndpoints } from './random.bench.ts';
import type { BenchResult } from './result.ts';

type Suite = { title: string; run: () => Promise<BenchResult[]> };

const suites: Suite[] = [
  { title: 'Random endpoints: full stack against the bare framework', run: benchRandomEndpoints },
];

const giveawaysBench = new URL('./giveaways.bench.ts', import.meta.url);
if (existsSync(fileURLToPath(giveawaysBench))) {
  const module = (await import(giveawaysBench.href)) as { benchGiveaways?: () => Promise<BenchResult[]> };
  if (module.benchGiveaways)
    suites.push({ title: 'Giveaways: draw, CSV export, participant insert', run: module.benchGiveaways });
}

const only = process.argv[2];
const sections: string[] = [];
for (const suite of suites) {
  if (only && !suite.title.toLowerCase().includes(only.toLowerCase())) continue;
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
  sections.push(
    `## ${suite.title}\n\n| measure | result | target | | notes |\n|---|---|---|---|---|\n${rows.join('\n')}\n`,
  );
}

const cpu = cpus();
const machine = `${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM (${(freemem() / 2 ** 30).toFixed(0)} GiB free at start), ${platform()} ${release()}, Node ${process.version}`;
const doc = `# Benchmarks

Measured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${machine}.
Load comes from autocannon in the benchmark process; every server under test runs in a process of
its own on 127.0.0.1. Figures compared with each other were measured side by side in the same run.
Numbers from a shared 2-core machine move by ±20% between runs; read ratios rather than absolutes.

${sections.join('\n')}
`;
if (!only) writeFileSync(new URL('../docs/benchmarks.md', import.meta.url), doc);
process.stdout.write(doc);
