# Every text the bot sends, in English. Telegram HTML: variables holding user text arrive escaped.

## Commands (the menu next to the text field)
cmd-start = Create your Tyche account
cmd-new = Create a giveaway and post it to your channel
cmd-giveaways = Your giveaways, with status and links
cmd-draw = Close entries and draw now: /draw <id>
cmd-my = Giveaways you have entered, with your receipts
cmd-language = Change the language
cmd-plan = Your plan and how to upgrade
cmd-newkey = Create an API key (Business plan): /newkey [label]
cmd-keys = List your API keys
cmd-revoke = Revoke an API key: /revoke <prefix>
cmd-post = Post a giveaway with a Join button: /post <giveaway id> <@channel>
cmd-cancel = Leave the current dialogue
cmd-help = What this bot does

## Start and help
welcome-new = Welcome to Tyche{ $name }! Your account is ready, on the Free plan.
welcome-back = Welcome back{ $name }! Your Tyche account is ready.
help-intro = Tyche draws giveaway winners with verifiable randomness: every draw has a public certificate anyone can check.
help-join = Join a giveaway by opening its link (t.me/…?start=g_…) or pressing its Join button.
something-went-wrong = Something went wrong on our side. Please try again in a moment.

## Plans and keys
plan-current = Your plan: <b>{ $plan }</b>.
plan-business = You have API access and the giveaway console: create a key with /newkey [label], a giveaway with /new.
plan-upgrade-needed = API keys, the API itself and /new need the <b>Business</b> plan.
plan-upgrade-how = To upgrade, ask the Tyche operator to run:
    <code>tyche accounts plan { $telegramId } business</code>
plan-upgrade-then = The change applies at once; then use /newkey or /new.
business-only = API keys need the Business plan; you are on { $plan }. /plan explains how to upgrade.
console-business-only = Running giveaways from the chat needs the Business plan; you are on { $plan }. /plan explains how to upgrade.
new-key =
    <b>Your new API key</b> — shown this once, never again:

    <code>{ $key }</code>

    Prefix: <code>{ $prefix }</code>{ $label } · Daily limit: { $limit }
    Store it in a password manager now, then delete this message. Send it as <code>Authorization: Bearer &lt;key&gt;</code>.
    Lost it? /revoke the prefix and create a new one.
new-key-label = { " " }· Label: { $label }
key-none = You have no active API keys. Create one with /newkey [label].
key-list-head = Your API keys ({ $count }):
key-list-item =
    • <code>{ $prefix }</code>{ $label }
      created { $created } · last used { $lastUsed }
      today { $today } of { $limit } requests
key-never = never
key-list-foot = Revoke one with /revoke &lt;prefix&gt;.
revoke-confirm = Revoke key <code>{ $prefix }</code>{ $label }? Requests with it will be refused at once. This cannot be undone.
revoke-usage = Usage: /revoke &lt;prefix&gt; — the prefixes are listed by /keys.
revoke-none = You have no active key with prefix <code>{ $prefix }</code>. See /keys.
revoke-done = Key <code>{ $prefix }</code> is revoked.
revoke-kept = Kept key <code>{ $prefix }</code>.
revoke-button-yes = Revoke
revoke-button-no = Keep
revoke-popup-done = Revoked
revoke-popup-none = Nothing to revoke
label-too-long = A key label can have at most 100 characters.

## Joining
joined = You joined “{ $title }”. Your entry number is { $entry }. Good luck!
joined-again = You are already in “{ $title }”, with entry number { $entry }. Good luck!
joined-receipt = <a href="{ $url }">Your receipt</a>: keep it to check that you are in the sealed list and whether you won.
joined-popup = You joined “{ $title }”! Your entry number is { $entry }.
joined-popup-again = You are already in “{ $title }” (entry #{ $entry }).
giveaway-not-found = There is no such giveaway. Check the link you followed.
giveaway-completed = This giveaway has already been drawn and no longer accepts entries.
giveaway-sealed = Entries to this giveaway are closed: its list of entrants is sealed for the draw.
join-needs-channel = To join “{ $title }”, first join { $channel }, then open the giveaway's link again.
join-needs-channel-popup = First join { $channel }, then press Join again.
join-button-channel = Open { $channel }
challenge-ask = One step before you join “{ $title }”: press the { $emoji } button.
challenge-wrong = That was not the { $emoji } button. Try again: press the { $emoji } button.
challenge-failed = Too many wrong answers. Open the giveaway's link again to get a new challenge.
challenge-stale = This challenge has expired. Open the giveaway's link again.

## Participants: /my, receipts, winners
my-none = You have not entered any giveaway yet.
my-head = Your entries ({ $count }):
my-item = • “{ $title }” — entry #{ $entry }, { $status } · <a href="{ $receipt }">receipt</a>{ $result }
my-item-excluded = • “{ $title }” — entry #{ $entry }, excluded at the seal: you had left a required channel.
my-result = { " " }· <a href="{ $url }">result</a>
status-active = open
status-sealing = entries closed, checking before the seal
status-sealed = sealed, drawing soon
status-completed = drawn
receipt-after-seal =
    Entries to “{ $title }” are closed. You are entrant { $index } of { $count } in the sealed list.

    <a href="{ $url }">Your receipt</a> proves it: the draw uses drand round { $round } (due { $due }).
winner-notice =
    🎉 You are winner #{ $position } of “{ $title }”!

    The draw is public and verifiable: { $url }

## After the draw: claims and replacements
winner-claim-by = Claim your prize by { $until }: press Claim. If you do not, the next reserve takes your place.
winner-button-claim = Claim
claim-done = You have claimed your prize as winner #{ $position } ({ $at }). The organiser will be in touch.
claim-done-popup = Claimed!
claim-expired = The time to claim this prize is over: it goes to the next reserve.
claim-not-yours = You are not the winner of this prize (any more).
substitute-notice =
    🎉 You are now winner #{ $position } of “{ $title }”: a winner was replaced ({ $reason }) and you were the next reserve in the draw's order.

    The draw and every replacement are public and verifiable: { $url }
reason-left_channel = left the channel
reason-unclaimed = did not claim the prize in time
reason-ineligible = not eligible
reason-duplicate_account = duplicate account
reason-other = other reason

## The giveaway console: /new
new-ask-title = <b>New giveaway</b> (step 1 of 6). Send its title — what entrants see first. /cancel stops at any step.
new-ask-description = Step 2 of 6: send a description (prizes, rules), or <code>-</code> for none.
new-ask-winners = Step 3 of 6: how many winners? Send a number from 1 to { $max }.
new-ask-ends =
    Step 4 of 6: when do entries close? Send a time in UTC, e.g. <code>{ $example }</code> or <code>2026-12-31T18:00:00Z</code>, or a delay: <code>in 90m</code>, <code>in 6h</code>, <code>in 3d</code>.
new-ask-channel =
    Step 5 of 6: which channel is the giveaway posted in? Send its @username or numeric id, or forward any message from it here.
    The bot must be an admin there, allowed to post and edit messages.
new-ask-required = Step 6 of 6: must entrants be members of channels? Send them as <code>@a @b</code>, or <code>-</code> for none.
new-button-none = None
new-button-skip = Skip
new-bad-title = A title needs 1 to { $max } characters. Send the title again.
new-bad-description = A description can have at most { $max } characters. Send a shorter one, or <code>-</code>.
new-bad-winners = “{ $answer }” is not a number of winners from 1 to { $max }. Send a number.
new-bad-ends = “{ $answer }” is not a time I can read. Send e.g. <code>{ $example }</code> (UTC) or <code>in 6h</code>.
new-ends-past = That time has passed. Send a time in the future, e.g. <code>in 6h</code>.
new-ends-far = Entries can stay open at most a year. Send an earlier time.
new-bad-channel = Send the channel as @username or its numeric id (-100…), or forward a message from it.
new-channel-unknown = I cannot see { $channel }. Check the name; for a private channel, add this bot first, then forward a message from it.
new-not-channel = { $channel } is not a channel. Giveaways are posted in channels.
new-not-admin =
    I am not an admin of { $channel }, so I cannot post the giveaway there.
    To fix it: open the channel → Administrators → Add admin → choose @{ $bot }, and allow “Post messages” and “Edit messages of others”. Then send the channel again.
new-cannot-post =
    I am an admin of { $channel } but may not post or edit messages there. Allow “Post messages” and “Edit messages of others” for @{ $bot }, then send the channel again.
new-bad-required = Send the required channels as <code>@a @b</code> (at most { $max }), or <code>-</code> for none.
new-required-unknown = I cannot see { $channel }. To check membership I must be an admin of a private channel; a public one needs its right @username.
new-preview-head = <b>Preview</b> — this is what will be posted to { $channel }:
new-preview-settings =
    Winners: { $winners } · entries close { $ends }
    Required channels: { $required }
    Join challenge (against bot farms): { $challenge }
    Time to claim a prize: { $claim }
new-challenge-on = on
new-challenge-off = off
new-required-none = none
new-button-publish = Publish
new-button-challenge-on = Turn the join challenge on
new-button-challenge-off = Turn the join challenge off
new-button-cancel = Cancel
new-button-claim = Set the time to claim a prize
new-button-claim-none = No deadline
new-claim-none = no deadline
new-ask-claim =
    How long does each winner have to claim the prize? Send e.g. <code>24h</code>, <code>3d</code> or <code>P2DT12H</code> (1 hour to 30 days), or <code>-</code> for no deadline.
    With a deadline the draw also picks as many reserves as winners: an unclaimed prize goes to the next reserve, publicly.
new-bad-claim = “{ $answer }” is not a time to claim from 1 hour to 30 days. Send e.g. <code>24h</code> or <code>3d</code>, or <code>-</code>.
new-published =
    Published “{ $title }”. The post with the Join button goes to { $channel } in a moment.

    Public page: { $page }
    Join link: { $join }
    Entries close { $ends }; then the list is sealed and the winners drawn from a public drand round.
new-cancelled = Cancelled. Nothing was created.
new-nothing-to-cancel = There is nothing to cancel.
new-stale = This preview is no longer open. Start again with /new.
new-in-progress = You are in the middle of creating a giveaway; answer the question above, or /cancel.

## The console: /giveaways, /draw
giveaways-none = You have no giveaways yet. Create one with /new.
giveaways-head = Your giveaways (newest first):
giveaways-item =
    • <b>{ $title }</b> — <code>{ $id }</code>
      { $status } · { $entrants } entrants · <a href="{ $page }">page</a>{ $result }
giveaways-more = …and more: the API lists them all.
giveaways-button-winners = { $title }: winners
giveaway-status-active = open
giveaway-status-sealing = entries closed; checking entrants against the required channels, then sealed
giveaway-status-sealed = sealed; drawn at its drand round
giveaway-status-completed = drawn
draw-usage = Usage: /draw &lt;giveaway id&gt; — the ids are listed by /giveaways.
draw-not-yours = You have no giveaway with that id. See /giveaways.
draw-sealed =
    Entries to “{ $title }” are closed: { $count } entrants sealed. The winners are drawn from drand round { $round }, due { $due }; the results are posted when it is out.
draw-checking = Entries to “{ $title }” close now: I am checking that every entrant is still in the required channels, then the list is sealed and drawn.
draw-done = “{ $title }” has been drawn: { $url }
draw-no-entrants = “{ $title }” has no entrants yet: nothing to draw.
draw-unavailable = The drand beacon cannot be reached right now, so the list cannot be sealed. Try again in a minute.
manage-head = <b>“{ $title }”</b>: the winners as they stand
manage-winner = #{ $position } { $name } — { $state }
manage-claimed = claimed { $at }
manage-claim-until = may claim until { $until }
manage-claim-over = did not claim by { $until }
manage-no-deadline = no deadline to claim
manage-reserves = Reserves left: { $count }. A replaced winner's place goes to the next reserve in the draw's order — nobody can be chosen — and every replacement is signed, logged and posted publicly.
manage-button-replace = Replace #{ $position }
replace-ask = Why is winner #{ $position } replaced? The reason is published with the replacement; “left the channel” is checked with Telegram.
replace-button-back = Back
replace-done = Winner #{ $position } is now { $name }, reserve { $reserve }. The amendment <code>{ $id }</code> is signed and public.
replace-no-reserves = No reserve is left: nobody can take this place.
replace-still-member = Telegram says this winner is still in the channel: not replaced.
replace-not-unclaimed = This winner has claimed the prize, or still has time to: not replaced.
replace-changed = This winner was replaced meanwhile: here are the winners now.
replace-not-drawn = This giveaway has not been drawn yet.
replace-telegram-down = Telegram could not be asked about the channel right now. Try again in a minute.
replace-no-channel = “Left the channel” needs a channel: this giveaway requires none and was not posted by the bot.

## Language
language-ask = Choose your language:
language-set = Language: English.

## Channel posts
post-winners = { $winners ->
        [one] 1 winner
       *[other] { $winners } winners
    }, drawn with verifiable randomness: every draw gets a public certificate anyone can check.
post-ends = Entries close { $ends }.
post-count = Entrants so far: { $count }
post-press-join = Press Join to enter.
post-button-join = Join
post-closed =
    <b>Entries closed: “{ $title }”</b>

    { $count } entrants are sealed in a list with root <code>{ $root }</code>.
    The winners will be drawn from drand round { $round }, due { $due } — randomness nobody knows yet.
    Check your entry: { $page }
post-closed-excluded = { $excluded } entrants who left a required channel were excluded.
post-results =
    <b>Results: “{ $title }”</b>

    { $winners }

    Certificate, and how to check the draw yourself: { $url }
post-results-more = …and { $more } more: the certificate lists every winner.
post-winner = { $position }. { $name }
post-amended =
    <b>Winner replaced: “{ $title }”</b>

    Winner #{ $position } { $old } is replaced by { $new }, the next reserve in the draw's order. Reason: { $reason }.
    Every replacement is signed and in the public log: { $url }
post-amended-note = Note: { $note }
post-usage = Usage: /post &lt;giveaway id&gt; &lt;@channel&gt; — the bot must be an admin of the channel who may post.
post-not-yours = You have no giveaway with that id. Giveaways belong to the account of your API keys.
posted = Posted to { $channel } with a Join button.
post-failed = Telegram did not accept the post to { $channel }. Add this bot to the channel as an admin who may post messages, then try again.

# The Telegram Mini App: the menu button and the buttons that open it.
help-menu-app = App
join-button-app = Open in the app
my-button-app = Open in the app
winner-button-app = Open in the app

## /new: the giveaway's terms, committed to by its seal (CONTRACT §14)
new-button-terms = Set the terms
new-button-terms-none = No terms
new-ask-terms =
    Send the giveaway's terms (its rules) in one message, or <code>-</code> for none. Up to { $max } characters can be given through the API; here, one Telegram message.
    The seal will commit to their SHA-256 fingerprint: once entries close, the terms cannot change, and anyone can check them on the giveaway's page.
new-bad-terms = Terms can have at most { $max } characters and no control characters. Send them again, or <code>-</code> for none.
new-preview-terms = Terms: { $terms }
new-terms-none = none
new-terms-set = { $chars } characters, SHA-256 <code>{ $hash }</code>…
