// `tyche log export DIR` (CONTRACT §16): the log as the files of c2sp.org/tlog-tiles, for any
// static host to serve under `/log/` — a mirror that monitors, witnesses and `tyche log verify`
// read like the server itself, at no cost to it.

import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type TileName, tilePath, treeBundles, treeTiles } from '../../proof/tiles.ts';
import { type Command, UsageError } from '../command.ts';
import { withServices } from '../store-session.ts';

/** Progress goes to stderr about this often on a long export. */
const PROGRESS_EVERY = 500;

/** Written beside, then renamed: a static host never serves half a tile or half a checkpoint. */
function writeFileAtomically(path: string, data: Uint8Array | string): void {
  mkdirSync(dirname(path), { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, data);
  renameSync(partial, path);
}

export const logExport: Command = {
  name: 'log export',
  usage: 'log export DIR',
  summary: `Write the transparency log as static files (c2sp.org/tlog-tiles, CONTRACT §16) under DIR, for
any static host to serve as …/log/: DIR/checkpoint (the signed checkpoint, with witnesses' cosignatures),
DIR/tile/<L>/<N>[.p/<W>] (every hash tile of that size, full and partial) and DIR/tile/entries/<N>[.p/<W>]
(every entry bundle). Reads the same store as the server (DATA_DIR or DATABASE_URL), running or not; the
checkpoint is written last, so a mirror never names a size whose tiles it lacks. Run it again into the same
DIR to bring a mirror up to date: files of earlier sizes stay, as clients of older checkpoints need them.
tyche log verify accepts the mirror's URL. Progress on stderr.`,
  async run({ positionals }, io) {
    if (positionals.length !== 1) throw new UsageError('give exactly one DIR');
    const dir = resolve(positionals[0]);
    return withServices(io.env, async (services) => {
      const log = services.transparency;
      const { size, note } = await log.checkpoint();
      const bundles = treeBundles(size);
      const tiles = treeTiles(size);
      const names: TileName[] = [...bundles, ...tiles];
      for (const [i, name] of names.entries()) {
        // The log only grows: every tile of the checkpoint's size is there, whatever came since.
        const { bytes } = await log.tiles.read(name);
        if (!bytes) throw new Error(`the log has no ${tilePath(name)}, which its size ${size} needs`);
        writeFileAtomically(join(dir, tilePath(name)), bytes);
        if ((i + 1) % PROGRESS_EVERY === 0) io.err(`files ${i + 1}/${names.length}`);
      }
      writeFileAtomically(join(dir, 'checkpoint'), note);
      io.err(`files ${names.length + 1}/${names.length + 1}`);
      io.out(
        `Exported the log at size ${size} to ${dir}: ${bundles.length} entry bundle${bundles.length === 1 ? '' : 's'}, ${tiles.length} hash tile${tiles.length === 1 ? '' : 's'} and the checkpoint. Serve ${dir} as …/log/.`,
      );
      return 0;
    });
  },
};
