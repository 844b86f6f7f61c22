# Every text of the public pages (/g, /verify, receipts, the landing page) and the certificate PDF,
# in English. Pages escape every variable; keys starting rc- and vc- are filled in the browser, so
# their variables are plain slots (no plural forms on them).

## Shared
page-language = Language
operator-trust = the operator's randomness must be trusted
footer-how = how the draw works
footer-keys = signing keys
footer-giveaway = the giveaway
person-no-name = (no public name)
col-name = Name
col-telegram-id = Telegram ID
round-word = round
signature = Signature
signature-by = { $alg } by key
signature-value = Signature value
log = Transparency log
log-entry = entry { $index } of /log
log-none = not in the log
log-not-yet = not logged yet
timestamps = Timestamps (RFC 3161)
stamps-none-seal = none: no time-stamping authority dated this seal
stamps-none-certificate = none: no time-stamping authority dated this certificate
stamps-checked-by-server = checked by this server
stamps-no-time = no time given
chain-quicknet = League of Entropy quicknet
chain-other = chain

## Timeline
timeline-label = How far the draw is
timeline-not-yet = not yet
timeline-created = Created
timeline-sealed = Entries sealed
timeline-round = drand round { $round }
timeline-round-unknown = drand round
timeline-drawn = Drawn
timeline-amended = Amendment { $sequence }

## The giveaway page (/g)
g-eyebrow = Tyche giveaway
g-title-suffix = Tyche giveaway
g-meta = Giveaway { $id }: { $title }
g-entrants-count = { $count ->
    [one] { $count } entrant
   *[other] { $count } entrants
}
g-status-active = Open for entries
g-status-sealing = Entries closed: checking the entrants before the seal
g-status-sealed = Sealed: waiting for the drand round
g-status-completed = Drawn
g-results-heading = Result
g-winners-heading = { $count ->
    [one] Winner
   *[other] Winners
}
g-reserves-heading = { $count ->
    [one] Reserve
   *[other] Reserves, in order
}
g-reserves-explain = A reserve takes the place of a winner who is replaced, in this order.
g-results-amended = { $count ->
    [one] As amended after the draw: one winner was replaced by a reserve.
   *[other] As amended after the draw: { $count } winners were replaced by reserves.
}
g-check-draw = Check the draw
g-drawn-see-certificate = The giveaway has been drawn: the certificate lists the winners.
g-certificate-logged = The certificate is
g-instant-notice = An instant draw: the operator's randomness must be trusted.
g-wait-heading = The draw is coming
g-wait-round = The winners will come from drand round { $round }, due
g-wait-reload = This page reloads by itself once the winners are drawn.
g-sealing = Entries are closed, and each entrant is being checked again against the channels this giveaway requires. Then the list is sealed by itself and committed to a future drand round; reload this page in a minute.
g-receipt-heading = Did you enter?
g-receipt-text-before = Your receipt link (sent when you joined) opens
g-receipt-link = the receipt page
g-receipt-text-after = , which checks in your browser that your entry is in the sealed list and, after the draw, whether you won. Your receipt code stays in your browser.
g-entries-heading = Entries
g-status = Status
g-entrants = Entrants
g-winners = Winners
g-then-reserves = { $reserves ->
    [one] then 1 reserve
   *[other] then { $reserves } reserves in order
}
g-created = Created (UTC)
g-closes = Entries close (UTC)
g-closes-unset = no closing time set: entries close when the owner seals or draws the giveaway
g-draw = Draw
g-mode-verifiable = Verifiable
g-mode-verifiable-how = the entrant list is sealed, then drawn from a public drand round that did not exist yet
g-mode-instant = Instant
g-conditions = Entrants must be members of
g-conditions-when = checked at joining and again before the seal
g-excluded = Excluded at the seal
g-excluded-left-channel = { $count ->
    [one] 1 entrant had left a required channel when the list was sealed
   *[other] { $count } entrants had left a required channel when the list was sealed
}
g-not-found = Giveaway not found
g-not-found-text = No giveaway has this id; check the address, it is the giveaway's public link:

## The entrants chart
chart-heading = Entrants over time
chart-title = { $total ->
    [one] 1 entrant joined between { $first } and { $last } UTC
   *[other] { $total } entrants joined between { $first } and { $last } UTC
}
chart-bucket = { $hours ->
    [one] hour
   *[other] { $hours } hours
}
chart-legend-joins = bars: joins per { $bucket }
chart-legend-total = line: running total (up to { $total })
chart-table = The numbers behind the chart
chart-col-from = From (UTC)
chart-col-joins = Joined
chart-col-total = Total

## The seal
seal-heading = The seal
seal-claim-sealed = { $count ->
    [one] The list of 1 entrant was sealed on
   *[other] The list of { $count } entrants was sealed on
}
seal-claim-round = and committed to drand round { $round }, due on
seal-claim-witnessed = The seal was published before that round existed, and an outside witness saw it before the round, so nobody — the owner or this server — could know the winners when it was made, and no entrant can be added or removed since.
seal-claim-timestamped = The seal was published before that round existed, and a time-stamping authority outside this server dated it before the round, so nobody — the owner or this server — could know the winners when it was made, and no entrant can be added or removed since.
seal-claim-operator = The owner could not know the winners when the list was sealed, and no entrant can be added or removed since. Warning: the seal's time rests on this server's word (no outside witness or valid timestamp yet).
seal-id = Seal
seal-root = Entrants root
seal-sealed-at = Sealed at (UTC)
seal-round = Committed round
seal-round-due = Round due (UTC)
seal-round-at-relay = the round at the relay
seal-after-round = Newest round at sealing
seal-after-round-value = round { $round }, randomness
seal-owner = Owner (pseudonym)
seal-hash = Seal hash
seal-keep-copy = Keep a copy:
seal-keep-copy-link = this giveaway with its signed seal (JSON)

## The certificate page (/verify)
v-title-suffix = draw certificate { $id }
v-meta = Draw certificate { $id }: { $title }
v-eyebrow-v2 = Tyche draw certificate · verifiable draw
v-eyebrow-v1 = Tyche draw certificate · instant draw
v-certificate = Certificate
v-giveaway = Giveaway
v-drawn-on = drawn on
v-v2-claim = The entrant list was sealed before drand round { $round } existed, and that public round alone chose the winners: neither the organiser nor this server could choose or predict them. Everything below can be checked from public data.
v-check-heading = Check this draw
v-check-lead = The button re-runs every check in your browser, with the same code the server uses; no account or key is needed.
v-check-noscript = With JavaScript off, check it from a terminal: the command is at the end of this page.
v-check-each = Each check
v-verify-button = Verify this draw
v-winners-heading = Winners
v-winners-as-drawn = Winners as drawn
v-winners-caption = { $entrants ->
    [one] { $count } of 1 entrant, in draw order
   *[other] { $count } of { $entrants } entrants, in draw order
}
v-reserves-heading = Reserves
v-reserves-caption = { $count ->
    [one] 1 reserve, after the winners
   *[other] { $count } reserves, in order, after the winners
}
v-sealed-list = The sealed list
v-requested = Winners, reserves
v-requested-value = { $winners ->
    [one] 1 winner
   *[other] { $winners } winners
}, { $reserves ->
    [one] 1 reserve
   *[other] { $reserves } reserves
} requested
v-seal-log = Seal in the transparency log
v-seal-timestamps = Seal timestamps (RFC 3161)
v-seal-signature = Seal signature
v-round-heading = The drand round
v-chain = Chain
v-round = Round
v-randomness = Randomness
v-bls-signature = BLS signature
v-draw-heading = The draw
v-algorithm = Algorithm
v-public-spec = public specification
v-seed = Seed
v-seed-how = How the seed is made
v-seed-how-parts = seal hash ‖ round randomness
v-drawn-at = Drawn at (UTC)
v-proofs-heading = Each winner's place in the sealed list
v-proofs-explain = Technical: each leaf hash is SHA-256(0x00 ‖ "tyche-entrant-v2" ‖ 0x00 ‖ salt ‖ Telegram ID); its proof leads from the leaf to the entrants root. The index is the 0-based place in canonical (leaf hash) order.
v-proof-winner = Winner { $position }
v-proof-reserve = Reserve { $position }
v-index = Index in canonical order (0-based)
v-salt = Salt
v-leaf-hash = Leaf hash
v-inclusion-proof = Inclusion proof
v-proof-empty = empty: the list has a single entrant, whose leaf is the root
v-signature-heading = Certificate signature
v-certificate-hash = Certificate hash
v-certificate-timestamps = Certificate timestamps (RFC 3161)
v-how-heading = How this works
v-how-v2 = The button at the top checks the seal and its signature, the round rules, drand round { $round }'s BLS signature — fetched again from the relay by your browser —, the seed, every winner and reserve, each one's proof against the sealed root, and the certificate's signature. It also checks the transparency log: a checkpoint under the log key this browser remembers for this server, that the log only grew since your last visit, that the seal and the certificate are in it, and that their key was announced there; then whether anyone besides this server dated the seal before the round: witnesses you trust and the time-stamping authorities' tokens.
v-how-amended = The winners were amended after the draw, so it also checks each amendment: its signature, that it is chained to the one before by hash and in sequence, that its substitute is the next unused reserve, and that it is in the transparency log.
v-how-v1 = The button at the top re-runs the checks in your browser: the certificate's hash, its Ed25519 signature against the published keys, the seed and the choice of every winner. Whatever the checks say, the operator's randomness must be trusted.
v-terminal = From a terminal, with Node.js 20 or newer and nothing to install: download this server's verifier and run it.
v-terminal-entrants = Add --entrants entrants.json to rebuild the root from the organiser's export.
v-terminal-participants = Add --participants participants.csv to check the participants hash against the organiser's list.
v-downloads = Downloads:
v-download-json = certificate (JSON)
v-download-pdf = certificate (PDF)
v-not-found = Certificate not found
v-not-found-text = No draw certificate has this id; check the address, it is the verify_url given when the giveaway was drawn:
v1-operator-lead = Operator-trusted draw:
v1-operator-text = the operator's randomness must be trusted. The arithmetic below can be checked by anyone, but not that the randomness was obtained once and not chosen: this giveaway was drawn instantly ({ $algorithm }), without a sealed list and a public round.
v1-winners-caption = { $participants ->
    [one] { $count } of 1 participant, in draw order
   *[other] { $count } of { $participants } participants, in draw order
}
v1-participants = Participants
v1-winners-requested = Winners requested
v1-participants-hash = Participants hash
v1-randomness = Randomness
v1-source = Source
v1-source-reference = Source reference
v1-obtained-at = Obtained at (UTC)
v1-operation = Operation
v1-r = R (32 bytes)
v1-beacon-value = Beacon value
v1-system-entropy = System entropy
v1-how-r = How R was made
v1-how-r-value = R = SHA-256(beacon value ‖ system entropy): the beacon is public, the fresh entropy makes R unpredictable.
v1-private-source = a private source: its bytes are published only here
vc-verifying = Verifying…
vc-invalid = Invalid: { $failed } of { $total } checks failed. Do not trust this result.
vc-operator = The certificate checks out ({ $passed } in your browser), but the operator's randomness must be trusted.
vc-valid = Valid draw: { $passed } in your browser. The winners follow from the sealed list and the public drand round alone.
vc-all-passed = all { $total } checks passed
vc-none-failed = no check failed
vc-could-not = Could not verify: { $error }
vc-warning = Warning

## Amendments
am-heading = Winners as amended
am-notice = { $count ->
    [one] After the draw, one amendment replaced a winner by the next unused reserve, in the order the draw fixed. The winners below stand now; the certificate's own winners, as drawn, follow further down.
   *[other] After the draw, { $count } amendments replaced winners by the next unused reserves, in the order the draw fixed. The winners below stand now; the certificate's own winners, as drawn, follow further down.
}
am-caption = { $count ->
    [one] { $winners } winners after 1 amendment
   *[other] { $winners } winners after { $count } amendments
}
am-since = Since
am-substitute = substitute (from the reserves)
am-as-drawn = as drawn
am-history = History of replacements
am-amendment = Amendment { $sequence }
am-line = winner #{ $position } { $replaced } was replaced by reserve { $reserve }, { $by }.
am-unlisted = an entrant the certificate does not list
am-reason = Reason:
am-note = Note from the organiser:

## The visitor's evidence settings
ev-summary = Witnesses you trust, and outside evidence you require
ev-witness-label = Verifier keys of the witnesses you trust, one per line.
ev-witness-text = Only these count when the page says whether the seal was witnessed before the round; they stay in this browser.
ev-tsa-label = Further time-stamping roots you trust (PEM).
ev-tsa-text = The page checks each TSA token against the roots it carries and these, never against a certificate that comes only with the token; they stay in this browser.
ev-require-label = Outside attestations you require
ev-require-text = With 1 or more, a seal that fewer outside parties dated before its round fails the check, where otherwise a seal whose time only the operator attests carries a warning. The address keeps it as

## The receipt page
r-title = Your entry
r-eyebrow = Tyche entry receipt
r-instant = instant draw: the operator's randomness must be trusted
r-noscript = This page checks your receipt in your browser, so it needs JavaScript. Without it, save the receipt the bot or the organiser gave you as receipt.json and run, with Node.js 20 or newer:
r-heading = Your entry
r-code-label = Receipt code or link (the part after # looks like
r-code-button = Check my entry
r-save = Save receipt
r-tree-heading = Your place in the sealed list
r-tree-explain = Your browser hashed your entry with each hash of the proof, level by level, and reached the root the seal signs. Open a hash to see it in full.
r-facts-heading = Technical details
r-checks-heading = Checks run in your browser
r-stamps-heading = The seal's timestamps
r-stamps-text = Time-stamping authorities outside this server that dated the seal; your browser checks each one when it checks your entry.
r-how-1 = Your receipt code (your Telegram id and a random salt) stays in this browser: it is after # in the address, which is never sent to the server.
r-how-2 = Your browser computes your leaf hash from it, fetches your signed entry ticket and your place in the sealed list, and checks them against the signed seal and the
r-how-3 = Once the drand round the seal commits to is public, it re-runs the draw from the seal and that round, and tells you whether you won — without trusting this server, and even if the server has not published the result yet (the page then says so).
r-how-4 = “Save receipt” keeps a copy on your device. With it you can show that your entry was acknowledged, even if it were left out of the list.
rc-telegram-id = Telegram ID
rc-leaf-hash = Leaf hash
rc-index = Index in canonical order (0-based, technical)
rc-seal = Seal
rc-seal-hash = Seal hash
rc-round = Committed drand round
rc-round-value = { $round }, due { $at }
rc-no-ticket = this giveaway has no entry with this receipt code: check that the link is complete
rc-ticket-label = Entry ticket
rc-not-sealed-note = not sealed yet: there is no list to check your place in
rc-sealed-list-label = Sealed list
rc-closes-at = Entries close on { $at }.
rc-closes-by-seal = Entries close when the organiser seals the list.
rc-instant = This giveaway is drawn instantly: there is no sealed list, and the operator's randomness must be trusted.
rc-instant-pending = Your entry is acknowledged. { $then }
rc-instant-won = The certificate lists you as winner #{ $position }. { $then }
rc-instant-not-won = The certificate does not list you among the winners. { $then }
rc-not-sealed = Your entry ticket is signed. The list is not sealed yet. { $closes } Come back after that to check your place.
rc-missing = your entry is not in the sealed list of { $count } entrants, although your signed ticket shows it was acknowledged. Save this receipt: it is your evidence.
rc-place = You are entrant #{ $place } of { $count } in the sealed list.
rc-in-list = You are in the sealed list. The draw uses drand round { $round }, due { $at }: come back after it to see whether you won.
rc-won = You won: winner #{ $position }.
rc-reserve = You are reserve #{ $reserve }: next in line, in order, if a winner is replaced.
rc-not-drawn = You were not drawn this time.
rc-now-winner = You are now winner #{ $position }, replacing { $replaced } (amendment { $sequence }: { $reason }).
rc-replaced = You were drawn as a winner, and were later replaced by a reserve.
rc-every-passed = Every check passed in your browser: the draw was re-run here from the seal and drand round { $round }.
rc-none-failed = No check failed in your browser: the draw was re-run here from the seal and drand round { $round }.
rc-failed = { $failed } of { $total } checks failed ({ $names }): do not trust this result.
rc-warning = Warning
rc-checking = Checking your entry…
rc-could-not = Could not check: { $error }
rc-open-link = Open your receipt link, or paste it or its code below.
rc-incomplete = This receipt link is not complete: { $problem }.
rc-not-a-code = That is not a receipt code: { $problem }.
rc-tree-you = your entry (leaf)
rc-tree-sibling = from the proof
rc-tree-computed = computed
rc-tree-root = entrants root (signed in the seal)

## The landing page and unknown addresses
landing-title = provably fair giveaway draws
landing-lead = Provably fair random values and giveaway draws: every draw has a public certificate that anyone can check.
landing-what-heading = What is this?
landing-what = A giveaway's entrant list is sealed and signed first; the winners then come from a public drand round that did not exist at the seal, so neither the organiser nor this server can choose them. Open the link to a giveaway (/g/…) or a certificate (/verify/…) that you were given to see its result and check it in your browser.
landing-links-heading = Where to go
landing-api = API reference (for developers)
landing-verifier = the standalone verifier (one file for Node.js)
landing-log = the transparency log's checkpoint
missing-heading = Page not found
missing-text = Nothing is at this address:
missing-home = Tyche's home page

## The certificate PDF
pdf-eyebrow-v1 = TYCHE DRAW CERTIFICATE
pdf-eyebrow-v2 = TYCHE VERIFIABLE DRAW CERTIFICATE
pdf-line-v1 = Certificate { $id } · giveaway { $giveaway }
pdf-line-v2 = Certificate { $id } · giveaway { $giveaway } · seal { $seal }
pdf-drawn = Drawn { $at }
pdf-drawn-round = Drawn { $at } from drand round { $round }
pdf-v1-note = The winners follow from randomness the server obtained for itself when it drew. The signature shows who issued this certificate, not that the draw was not repeated until a chosen entrant won. A verifiable draw (tyche-draw-v2) seals the entrant list before a public drand round exists.
pdf-v2-lead = the winners come from a public drand round that did not exist when the entrant list was sealed.
pdf-v2-note = { $count ->
    [one] The 1 entrant was
   *[other] The { $count } entrants were
} sealed and signed at { $sealed }, committing to round { $round }, due at { $due }. Nothing else enters the draw: anyone can recompute the seed and the winners from this certificate, and each winner’s inclusion proof ties them to the sealed list.
pdf-specified = { $algorithm }, specified at { $url }
pdf-sealed = sealed { $at }
pdf-participants-value = { $count } (winners requested: { $winners })
pdf-round-value = { $round }, due { $due } (newest round at sealing: { $after })
pdf-proof = Proof
pdf-proof-hashes = { $count ->
    [one] 1 hash
   *[other] { $count } hashes
}
pdf-winners = Winners, in draw order
pdf-winners-as-drawn = Winners as drawn, in draw order
pdf-reserves = Reserves, in order: each takes the place of a winner who drops out
pdf-amended-winners = { $count ->
    [one] Winners as amended, after 1 replacement by the reserves (history below)
   *[other] Winners as amended, after { $count } replacements by the reserves (history below)
}
pdf-more-winners = … and { $hidden } more winners: see { $url }
pdf-more-reserves = … and { $hidden } more reserves: see { $url }
pdf-more-amended = … and { $hidden } more winners as amended: see { $url }
pdf-more-history = … and { $hidden } more amendments: see { $url }
pdf-footer = Check it: open { $page } and press “Verify this draw”, or download { $verifier } and run: node tyche-verify.mjs { $page }
pdf-footer-v2 = Check it: scan the QR code or open { $page } and press “Verify this draw”, or download { $verifier } and run: node tyche-verify.mjs { $page }

## The error table (/docs/errors)
errors-title = Tyche error codes
errors-heading = Error codes
errors-lead = Every error is an RFC 9457 problem (application/problem+json) whose type links to its row here, and whose request_id is the response's X-Request-ID. Which codes each operation answers:
errors-reference = the API reference
errors-col-code = code
errors-col-status = status
errors-col-title = title
errors-col-meaning = meaning

## The organizer's record (/o)
o-eyebrow = Tyche organizer's record
o-heading = Organizer
o-title = Organizer { $owner } — Tyche
o-description = The public record of organizer { $owner }, from the transparency log
o-intro = A stable public pseudonym of the account that runs these giveaways (never its Telegram id). Everything below is computed from the transparency log alone: the seals, certificates and replacements this organizer published, as anyone can read them.
o-no-flags = No red flags: no giveaway was sealed twice, no two of its giveaways were sealed on the same drand round, and every replaced winner was replaced by the next reserve in order.
o-flags-heading = Red flags
o-flags-intro = { $count ->
    [one] 1 red flag in the transparency log. Each is what a monitor reports; judge the giveaways named with it.
   *[other] { $count } red flags in the transparency log. Each is what a monitor reports; judge the giveaways named with it.
}
o-flag-multiple_seals = A giveaway sealed more than once
o-flag-shared_round = Giveaways sealed on the same drand round
o-flag-reserve_order = A substitute out of reserve order
o-flag-why-multiple_seals = a giveaway has at most one seal, ever: a second one could re-draw its list
o-flag-why-shared_round = one owner's copies of a draw on one round could be compared and the best kept
o-flag-why-reserve_order = a replaced winner's place goes to the next unused reserve, in order
o-entries = Log entries
o-summary-heading = At a glance
o-sealed = Giveaways sealed
o-drawn = Giveaways drawn
o-median = Median time from the round to the draw
o-median-none = no draw yet
o-median-value = { $seconds } s (over the drawn giveaways: from the committed drand round's time to the draw)
o-replaced = Winners replaced
o-replaced-none = none
o-giveaways-heading = Giveaways
o-giveaways-all = { $count ->
    [one] 1 giveaway, newest first
   *[other] { $count } giveaways, newest first
}
o-giveaways-some = The newest { $shown } of { $count }; the JSON lists all
o-col-giveaway = Giveaway
o-col-sealed = Sealed (UTC)
o-col-round = Round
o-col-drawn = Drawn (UTC)
o-col-round-to-draw = Round → draw
o-col-replaced = Replaced
o-untitled = (no title)
o-not-drawn = not drawn yet
o-seconds = { $seconds } s
o-how-heading = How this record is made
o-how = { $count ->
    [one] From the 1 log entry filed under this pseudonym (entry { $last }): each seal and certificate names its owner in the signed seal, and each replacement names its giveaway. Signatures and the log's consistency are checked by
   *[other] From the { $count } log entries filed under this pseudonym (the newest is entry { $last }): each seal and certificate names its owner in the signed seal, and each replacement names its giveaway. Signatures and the log's consistency are checked by
}
o-json = This record as JSON
o-not-found-title = Organizer not found — Tyche
o-not-found-heading = No record for this organizer
o-not-found-before = The transparency log holds nothing about
o-not-found-after = . An organizer appears here once one of their giveaways is sealed; check the address, which a giveaway's page links to.
o-footer-log = the transparency log
o-label = Organizer
o-record-link = the organizer's record
o-record-link-title = Every giveaway this organizer sealed and drew, how they replaced winners, and any red flag, from the transparency log

## Check lines on the receipt page, /verify and the Mini App (proof/check-phrases.ts)
chk-label-format = Format
chk-label-seal-hash = Seal hash
chk-label-seal-signature = Seal signature
chk-label-beacon-chain = drand chain
chk-label-seal-rounds = Committed round
chk-label-beacon-signature = drand round signature
chk-label-beacon-round = Round drawn = round committed
chk-label-beacon-record = drand relay record
chk-label-seed = Seed
chk-label-winners = Winners
chk-label-reserves = Reserves
chk-label-leaves = Leaf hashes
chk-label-proofs = Inclusion proofs
chk-label-entrants = Entrant list
chk-label-hash = Certificate hash
chk-label-signature = Certificate signature
chk-label-receipt-leaf = Receipt leaf hash
chk-label-receipt-seal = Receipt and seal
chk-label-receipt-proof = Receipt inclusion proof
chk-label-certificate = Certificate
chk-label-certificate-seal = Certificate and seal
chk-label-outcome = Outcome
chk-label-v1-format = Certificate format
chk-label-v1-hash = Certificate hash
chk-label-v1-signature = Ed25519 signature
chk-label-v1-randomness = Randomness R
chk-label-v1-beacon = Public beacon record
chk-label-v1-seed = Seed
chk-label-v1-winners = Winner selection
chk-label-v1-participants = Participant list
chk-label-amendment-certificate = Certificate to amend
chk-label-amendment-format = Amendment format
chk-label-amendment-giveaway = Amendment names this draw
chk-label-amendment-sequence = Amendment sequence
chk-label-amendment-previous = Amendment chain
chk-label-amendment-hash = Amendment hash
chk-label-amendment-signature = Amendment signature
chk-label-amendment-time = Amendment time
chk-label-amendment-position = Amended position
chk-label-amendment-replaced = Replaced winner
chk-label-amendment-reserve = Next unused reserve
chk-label-ticket = Entry ticket
chk-label-ticket-hash = Ticket hash
chk-label-ticket-signature = Ticket signature
chk-label-amendments = Amendments
chk-label-amended-winners = Amended winners
chk-label-log-key = Log key
chk-label-log-checkpoint = Log checkpoint
chk-label-log-consistency = Log consistency
chk-label-log-inclusion-seal = Log inclusion (seal)
chk-label-log-inclusion-certificate = Log inclusion (certificate)
chk-label-log-inclusion-result = Log inclusion (result)
chk-label-log-inclusion-amendment = Log inclusion (amendment { $n })
chk-label-log-key-seal = Signing key in the log (seal)
chk-label-log-key-certificate = Signing key in the log (certificate)
chk-label-log-key-result = Signing key in the log (result)
chk-label-log-key-amendment = Signing key in the log (amendment { $n })
chk-label-witnessed-checkpoint = Witnessed checkpoint
chk-label-seal-witness = Seal witnesses
chk-label-seal-time = Seal time
chk-label-seal-timestamps = Seal timestamps
chk-label-certificate-timestamps = Certificate timestamps
chk-label-trust = Trust
chk-label-leaf = Leaf hash
chk-note-leaf-computed = { $leaf }: computed here from your Telegram id and salt
chk-note-no-entry = this giveaway has no entry with your receipt code
chk-label-sealed-list = Sealed list
chk-note-not-sealed = not sealed yet: there is no list to check your place in
chk-note-not-in-list = your entry is not in the sealed list
chk-label-drand-round = drand round
chk-note-round-unreadable = round { $round } is not readable yet from { $url }: { $problem }
chk-note-relay-unread = not compared: could not read { $url }: { $problem }
chk-note-late = round { $round } is public since { $at }; the certificate is not published yet — the outcome above is computed from the seal and the round
chk-label-check = Check
chk-label-chain-key = drand chain key
chk-note-chain-key-read = chain { $chain } is not quicknet: its public key was read from { $url }
chk-note-chain-key-unread = could not read { $url }: { $problem }
chk-label-log = Transparency log
chk-note-log-no-certificate-entry = not checked: this certificate names no log entry
chk-note-log-no-seal-entry = not checked: this giveaway names no log entry for its seal
chk-cannot-check = cannot be checked: { $error }
chk-format-ok = readable as { $algorithm }
chk-signature-ok = valid, by published key { $kid }
chk-hash-ok = SHA-256 of the canonical JSON is { $hash }
chk-seal-hash-ok = SHA-256 of the seal's canonical JSON is its hash
chk-beacon-chain-quicknet = the seal commits to quicknet (built in)
chk-beacon-chain-given = the seal commits to the given chain { $chain }
chk-beacon-chain-unknown = the seal commits to drand chain { $chain }, which this verifier does not know: quicknet is built in, another chain's /info must be given
chk-seal-rounds-ok = round { $round } (due { $due }) is at least 2 rounds after the newest round at sealing ({ $after }) and after the seal's time ({ $sealed })
chk-ticket-ok = your entry was acknowledged on { $at }
chk-ticket-not-object = the ticket is not a JSON object
chk-ticket-type = type is { $type }, not "{ $expected }"
chk-ticket-giveaway = the ticket is for giveaway { $giveaway }, not { $expected }
chk-ticket-leaf = the ticket is for leaf { $leaf }, your code gives { $expected }
chk-ticket-hash-ok = SHA-256 of the ticket's canonical JSON
chk-receipt-format-ok = a readable receipt and tyche-seal-v2
chk-receipt-leaf-ok = leaf_hash { $leaf }
chk-receipt-leaf-other = salt and telegram_id hash to { $leaf }, not { $given }
chk-receipt-seal-by-hash = seal { $seal }, hash { $hash } as the receipt names it: { $count } entrants, root { $root }
chk-receipt-seal-by-id = seal { $seal }, matched by id only (the receipt has no seal_hash: a re-made seal with this id would pass): { $count } entrants, root { $root }
chk-receipt-seal-by-root = seal { $seal }, matched by count and root only (the receipt names no seal): { $count } entrants, root { $root }
chk-receipt-seal-other-id = the receipt is for seal { $given }, not { $seal }
chk-receipt-seal-other-hash = the seal is not the one this receipt was issued under: hash { $hash } ≠ { $given } (the receipt's seal_hash)
chk-receipt-seal-other-count = the receipt says { $given } entrants, the seal { $count }
chk-receipt-seal-other-root = the receipt's root { $given } is not the sealed root { $root }
chk-receipt-proof-ok = this entrant is index { $index } of the { $count } sealed entrants
chk-receipt-proof-bad = the proof does not put this entrant at index { $index } of the sealed list
chk-certificate-ok = every check of the certificate passes
chk-certificate-failed = failed: { $failed }
chk-certificate-seal-ok = the certificate draws from this seal
chk-certificate-seal-bad = the certificate is not for this seal
chk-outcome-not-drawn = not drawn: index { $index } is not among the { $drawn } drawn
chk-outcome-winner = drawn as winner { $position }, and listed so
chk-outcome-reserve = drawn as reserve (position { $position }), and listed so
chk-outcome-winner-unlisted = the draw makes this entrant winner { $position }, but the certificate lists someone else there
chk-outcome-reserve-unlisted = the draw makes this entrant reserve (position { $position }), but the certificate lists someone else there
chk-outcome-round-not-drawn = not drawn: index { $index } is not among the { $drawn } drawn, computed from the seal and drand round { $round }, without a certificate
chk-outcome-round-winner = drawn as winner { $position }, computed from the seal and drand round { $round }, without a certificate
chk-outcome-round-reserve = drawn as reserve (position { $position }), computed from the seal and drand round { $round }, without a certificate
chk-relay-round-ok = round { $round } as the relay serves it is signed by the chain's key and randomness = SHA-256(signature)
chk-relay-round-bad = the round read from the relay: { $problem }
chk-drawn-none = none drawn
chk-drawn-indices = indices { $indices } of { $count }, re-drawn from the seed
chk-leaves-ok = each listed leaf_hash is SHA-256(0 ‖ "tyche-entrant-v2" ‖ 0 ‖ salt ‖ telegram_id)
chk-proofs-ok = each listed entrant is at its index in the sealed list of { $count } (root { $root })
chk-entrants-ok = the { $count } entrants rebuild the sealed root { $root }
chk-beacon-record-ok = round { $round } as served by the relay is the one in the certificate
chk-beacon-signature-ok = round { $round } is signed by the chain's key and randomness = SHA-256(signature)
chk-beacon-round-ok = round { $round }, as sealed
chk-beacon-round-other = the certificate uses round { $round }, the seal commits to round { $sealed }
chk-seed-v2-ok = SHA-256("{ $algorithm }" ‖ 0 ‖ seal hash ‖ round randomness) = { $seed }
chk-seed-other = recomputed { $seed }, the certificate says { $given }
chk-randomness-private = 32 bytes from the private source { $source }
chk-randomness-beacon = R = SHA-256(beacon value ‖ system entropy); the beacon value should match { $source } record { $reference }
chk-seed-v1-ok = SHA-256("{ $algorithm }" ‖ 0 ‖ participants_hash ‖ R) = { $seed }
chk-winners-v1-ok = { $algorithm } picks canonical indices { $indices } of { $count }, as listed
chk-participants-ok = hash { $hash } matches; every winner's telegram_id is at its index
chk-operator-trust = the operator's randomness must be trusted
chk-amendments-ok = { $count } amendment(s) in sequence, each chained to the one before by its hash, signed by a published key, and taking the next unused reserve
chk-amended-winners-ok = the winners published as amended are the certificate's winners after { $count } amendment(s)
chk-log-checkpoint-given = { $origin } at size { $size }, signed by the log key (given with { $given })
chk-log-checkpoint-pinned-earlier = { $origin } at size { $size }, signed by the log key (pinned earlier)
chk-log-checkpoint-pinned-now = { $origin } at size { $size }, signed by the log key (pinned now, on first use)
chk-log-consistency-ok = the log only grew since size { $size }, seen before
chk-log-inclusion-ok = it is entry { $index } of the log of size { $size }
chk-log-key-ok = its key was announced in the log before entry { $index } and not retired
chk-witnessed-trusted = the seal is entry { $index } of the checkpoint at size { $size }, which the log at size { $fresh } extends; cosigned by { $cosigners } witness(es) you trust, { $before } of them before the round
chk-witnessed-untrusted = the seal is entry { $index } of the checkpoint at size { $size }, which the log at size { $fresh } extends; it carries { $lines } cosignature(s), none by a witness key you gave
chk-seal-witnessed = seal witnessed before the round by { $count } witness(es)
chk-seal-time-operator-only = seal time attested by the operator only
chk-seal-time-outside = operator-proof: seal witnessed or timestamped before the round ({ $witnesses } witness(es), { $tsas } TSA(s){ $required })
chk-timestamps-seal = seal timestamped before the round by { $good } of { $all } TSA(s){ $names }
chk-timestamps-certificate = draw timestamped after the round by { $good } of { $all } TSA(s){ $names }
chk-state-ok = : passed
chk-state-warn = : warning
chk-state-bad = : FAILED
