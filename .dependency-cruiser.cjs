// The layering of DESIGN.md "Shape", checked in `npm test` (npm run check:deps). A room may
// import only rooms below it; each rule's name says which promise an import would break.

/** The rooms from the top; a room imports only rooms listed after it. */
const LAYERS = [
  ['cli'],
  ['bot', 'http'],
  ['web'],
  ['pdf'],
  ['edge'],
  ['giveaways'],
  ['webhooks'],
  ['log', 'witness', 'timestamps'],
  ['randomness'],
  ['accounts'],
  ['idempotency', 'jobs'],
  ['signing'],
  ['store'],
  ['proof'],
  ['i18n'],
  ['shared'],
];

const room = (names) => `^src/(${names.join('|')})/`;

const upward = LAYERS.slice(1).map((rooms, i) => ({
  name: `no-upward-import:${rooms.join('+')}`,
  comment: `${rooms.join(' and ')} may not import a room above ${rooms.length > 1 ? 'them' : 'it'} (DESIGN.md "Shape")`,
  severity: 'error',
  from: { path: room(rooms) },
  to: { path: room(LAYERS.slice(0, i + 1).flat()) },
}));

const siblings = LAYERS.filter((rooms) => rooms.length > 1).map((rooms) => ({
  name: `no-sibling-import:${rooms.join('+')}`,
  comment: `${rooms.join(' and ')} stand side by side and never import each other`,
  severity: 'error',
  from: { path: room(rooms) },
  to: { path: room(rooms), pathNot: '^src/$1/' },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circle between files',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular-folders',
      comment: 'No import circle between folders',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    ...upward,
    ...siblings,
    {
      name: 'no-root-import',
      comment: 'The composition root (config, services, server) is imported only by the CLI that starts it',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/cli/', '^src/[^/]+\\.ts$'] },
      to: { path: '^src/[^/]+\\.ts$' },
    },
    {
      name: 'proof-is-pure',
      comment:
        'proof/ is the browser-loadable core: it imports nothing outside proof/ and no Node built-in, only the pure libraries it is built on (@noble; pkijs and asn1js for RFC 3161 tokens)',
      severity: 'error',
      from: { path: '^src/proof/' },
      to: {
        pathNot: ['^src/proof/', '^node_modules/(@noble|pkijs|asn1js|@peculiar|pvtsutils|pvutils|bytestreamjs)/'],
      },
    },
    {
      name: 'store-imports-no-feature',
      comment: 'store/ and its frozen migrations import nothing above store/ (a migration copies the constants it needs)',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/', pathNot: ['^src/store/', '^src/shared/'] },
    },
    {
      name: 'edge-never-imports-repositories',
      comment: 'Routes and bot composers call services; repositories hold SQL and are reached through services',
      severity: 'error',
      from: { path: ['\\.routes\\.ts$', '\\.composer\\.ts$'] },
      to: { path: '\\.repository\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^src/i18n/locales/' },
  },
};
