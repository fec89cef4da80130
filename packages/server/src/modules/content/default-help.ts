import {
  AUTOTIP_COUNT_LIMIT,
  CLEAN_SWEEP_BONUS,
  MARGIN_MAX,
  TOP_PRIZE,
  type Sport,
} from '@tipping/contract/constants'
import type { Faq, HelpPage } from '@tipping/contract/content'
import { HEAD_TO_HEAD_RULE } from '@tipping/contract/rules/head-to-head'
import { SEASON_STREAK_RULE } from '@tipping/contract/rules/season'
import { STILL_IN_IT_LATE_ROUNDS } from '@tipping/contract/rules/honours'

// The help a fresh deployment publishes (issue 7 item 2): FAQ, guidelines, game rules and prizes
// per competition, written from GAME_RULES.md for players. An admin replaces any of it through
// PUT /api/admin/content/faqs or /help_pages; these are only the defaults when nothing is stored.
// Numbers come from the contract's constants so the text cannot drift from the scoring.

const COMPETITION: Record<Sport, { name: string; short: string; other: string }> = {
  bbl: { name: "the men's Big Bash League", short: 'BBL', other: 'WBBL' },
  wbbl: { name: "the Women's Big Bash League", short: 'WBBL', other: 'BBL' },
}

export function defaultFaqs(sport: Sport): Faq[] {
  const c = COMPETITION[sport]
  return [
    {
      question: 'What is Big Bash Tipping?',
      answer: `A free game: before each match of ${c.name} you tip which team will win. Every correct tip scores a point, and you climb the overall rankings and the ladders of the leagues you play in with friends.`,
    },
    {
      question: 'Does it cost anything to play?',
      answer:
        'No. The game is free. There is nothing to buy and no payment details are ever asked for.',
    },
    {
      question: 'When do I have to get my tips in?',
      answer:
        "Each match locks at its scheduled start time. Until then you can make, change or clear a tip as often as you like; after it you cannot. Matches of the same week lock one by one, so a late match can still be tipped after an early one has started. The game's clock decides, not your phone's: if your phone or computer runs a few minutes fast or slow, the tipping page, its locks and its countdown still follow the game's time.",
    },
    {
      question: 'What happens if I forget to tip a match?',
      answer: `When the match locks you are given an auto-tip: the away team. If it wins, the point counts only while you have fewer than ${AUTOTIP_COUNT_LIMIT} correct tips of your own in that week, and any auto-tip in a week rules out the Clean Sweep Bonus. Autopick is different: it is a button that fills your untipped matches with the most popular team, and those tips are your own.`,
    },
    {
      question: 'What is the Super Sixes game?',
      answer: `One match each week is the margin game. As well as the winner you predict how many sixes both teams will hit together (0 to ${MARGIN_MAX}). The difference between your number and the real count is your margin; it separates tippers on equal points, and lower is better.`,
    },
    {
      question: 'I joined after the season started. Where do I stand?',
      answer:
        "You are in the overall rankings, every week's rankings and your leagues' ladders from the moment you sign up, with 0 points for the matches that started before you joined (no auto-tips for those). In a week whose Super Sixes match finished before you joined, your margin is the number of sixes hit, as for anyone who made no prediction. From your first tip on you score like everyone else.",
    },
    {
      question: 'What are Golden Week and the Clean Sweep Bonus?',
      answer: `In the Golden Week every correct tip is worth double. The Clean Sweep Bonus is ${CLEAN_SWEEP_BONUS} extra points for tipping every match of a week correctly yourself, with no auto-tips. The bonus is not doubled in the Golden Week.`,
    },
    {
      question: 'How do leagues work?',
      answer:
        'Anyone can create a private or public league and becomes its commissioner. Friends join with the league code or an invite link; public leagues can also be found by searching. A league ladder counts points from its starting week. You can play in as many leagues as you like, and your tips are the same in all of them. A commissioner can remove a league only before its starting week; to step away, hand it to another member in its settings, then leave it like anyone else.',
    },
    {
      question: 'Can I follow a match while it is played?',
      answer:
        'Yes. While a match is on, its card on the tipping page shows the score of each innings, the run rate, the target and the rate needed in the chase, the sixes so far on the Super Sixes match, and whether the team you tipped is ahead right now. It updates by itself within seconds, with no need to reload; if your connection cannot keep a live link open, the page still refreshes every 31 seconds. A live score never scores anything: points come only with the result.',
    },
    {
      question: 'Can I see what other people tipped?',
      answer:
        'Yes, but only for matches that have finished. Tips on matches still to come stay private, so nobody can copy yours.',
    },
    {
      question: `Can I also play ${c.other} tipping?`,
      answer: `Yes. The same account plays both competitions; use the ${c.other} link in the menu once it is open. Scores, rankings and leagues are kept separately for each competition.`,
    },
    {
      question: 'What do the numbers on My season mean?',
      answer: `My season (in the menu) counts every match that has a result. Tips correct: your tips, auto-tips included, on matches that ended with a winner, and the share of them you got right. By team: those tips grouped by the team you tipped, best read first. Streaks: ${SEASON_STREAK_RULE} Clean sweeps: the weeks that earned the ${CLEAN_SWEEP_BONUS}-point Clean Sweep Bonus. Golden Week haul: your points in the Golden Week. Auto-tips that cost you: auto-tips that named the losing team, plus correct auto-tips that did not count because you already had ${AUTOTIP_COUNT_LIMIT} correct tips of your own that week. Super Sixes miss: how far off your sixes prediction was, on average and at best, over the finished Super Sixes matches you had a tip on (no number counts as 0). Points per round: your points each week beside the week's average and best over every ranked tipper. Pick a week under "Why my rank is what it is" to see each tip, whether it was right and counted and why, what it was worth, the bonus, your margin and how ties are broken.`,
    },
    {
      question: 'How is the rank line on My season worked out?',
      answer:
        'It shows where you stood in the overall rankings at the end of each week: your points and margin added up over every week so far, against everyone else’s added up the same way, and ranked by the usual rule (points first, then the lowest margin; level on both, you share the rank). Rank 1 is at the top of the chart, so a line that climbs means you are moving up. It ranks everyone who is playing today, so a tipper who joined later counts in earlier weeks too, with the points they had then (none for what they missed), and a deactivated account is left out of every week. After your last finished week it is the rank in your score header. A new result takes a few seconds to reach the line; until then the latest week shows as still being counted. Your rank in the score header also leads to My season. Under "In my leagues", pick one of your leagues to see the same for it, counted from the league’s start week over its members who are playing: your points each week beside the league’s average and best that week, and your rank in the league after each week, by the same rule as its ladder.',
    },
    {
      question: 'How does head-to-head work in a league?',
      answer: `Open a league you are in and choose Head-to-head: pick any two members (you against the leader to begin with) to see their season against each other. ${HEAD_TO_HEAD_RULE} Under the record, pick a week to see the tips the two of you made differently: only matches that have finished are shown, never one still to be played, and an auto-tip is marked as one.`,
    },
    {
      question: 'Can I choose when I am reminded to tip?',
      answer:
        'Yes, in your account under "Email me a reminder to tip": a day before each week starts, 2 hours before the first match you have not tipped, or never. A reminder only goes when something is untipped, lists exactly the matches you have not tipped yet, and says for each what your autopilot will tip if you leave it. You get each kind of reminder at most once a week.',
    },
    {
      question: 'What is autopilot?',
      answer:
        'A setting in your account, off unless you turn it on, for each competition: if you have not tipped a match 15 minutes, 1 hour or 3 hours before it starts, autopilot tips it for you with the favourite (the team more tippers have picked so far, the home team on a tie), the home team, or your team when it plays (else the favourite). Its tips are ordinary tips, not auto-tips: they count like your own and do not rule out the Clean Sweep Bonus. The tipping page shows "Placed by autopilot" on them; change one and it is yours.',
    },
    {
      question: 'What can I win?',
      answer: `The best tipper of the season overall wins the top prize of ${TOP_PRIZE}. See the Prizes page for the details.`,
    },
    {
      question: 'What is a tip receipt, and how do I check one?',
      answer:
        'Every time a save of your tips is accepted, the server answers with a receipt: a short code (its id), the exact time the server took the save, to the thousandth of a second, and a digest, a seal the server makes from your account, the week and every pick in that save with a key only it holds. Autopick and Clear all get one too: an autopick\'s receipt lists the matches it filled, a clear\'s the tips it removed (My tips history shows what each was), and one that changed nothing still gets its receipt. The tipping page shows your last receipt with a Copy receipt button; My tips history (linked under your matches) lists every save, autopick and clear of the season with its receipt and what it changed. To check a receipt, paste it under "Check a receipt" on My tips history, or send it to anyone: they can ask the server at /api/receipts/{id}?digest={digest} and it answers only whether the receipt is genuine and when the save was made, never your picks. A receipt whose id or digest was altered is not genuine. Each locked match also shows when the server locked it, to the thousandth of a second.',
    },
    {
      question: 'Can I put the game on my phone like an app?',
      answer:
        'Yes. Open the site in your phone\'s browser and choose "Install app" or "Add to Home screen" (on an iPhone: the Share button, then "Add to Home Screen"). It opens from its own icon without the browser\'s bars, and it keeps the app itself on the phone, so it starts even with no signal. A new version is picked up by itself the next time you open it while online.',
    },
    {
      question: 'Can I tip without a connection?',
      answer:
        'Yes. Without a connection a banner says you are offline, and the tipping page shows this week, your tips and your leagues as the phone last saw them. Pick and press Save as usual: your picks are kept on this phone (they survive closing the app or the browser) and sent by themselves as soon as you are back online. Until then they count for nothing, so get a signal before the match starts: each tip is judged when it reaches us, and one for a match that has already started is refused with the same message as any late tip. Once sent, the tipping page lists each kept tip as saved or refused. Signing out deletes what the phone kept of your account, tips not yet sent included.',
    },
    {
      question: 'What are round honours in a league?',
      answer:
        'Once every match of a week has finished, whoever in the league came first that week (most points that week, then the lowest Super Sixes margin) wins it. Level on both, they share it. Only weeks from the league\'s starting week count, and only members who are ranked (deactivated accounts are left out). The ladder shows a star with the number of weeks each member has won, choosing a week on the ladder names its winners, and the Members tab lists the weeks each member won. The honours are the week ladder\'s first places, so they change only if a result is corrected. When more than 20 members share a week (in a big public league a week can end level for hundreds), the 20 who signed up first are named, with their stars, and the rest are counted, as in "and 312 others".',
    },
    {
      question: 'Can I still win my league?',
      answer: `Above a league's overall ladder you can see how many points are still to play for: every match not yet finished tipped correctly (worth double in the Golden Week) plus the ${CLEAN_SWEEP_BONUS}-point Clean Sweep Bonus of each week not yet finished. Add that to your total: if it beats the leader's total, you are still in it; if it falls short, you are out, whatever happens. Level with the leader: while a Super Sixes match is still to finish, the margin can still go your way, so you are in; after the last one, margins are final and you are in only if yours is no higher than the leader's (first place is shared on equal points and margin). It is the best case for you, so "in it" means possible, not likely. The ladder marks each member "In it" or "Out" in the last ${STILL_IN_IT_LATE_ROUNDS} weeks, or earlier as soon as someone is out.`,
    },
    {
      question: 'Where can I see last season?',
      answer:
        'Under Past seasons (linked from My season). Each finished season stays as it ended: the final overall rankings, your final rank and points with your My season numbers, where you finished in each of your leagues and their final ladders, and the team ladder. A past season is there to look at only: its tips, results and leagues can no longer be changed, and trying to change a league of a past season says so.',
    },
    {
      question: 'How do I bring my league back for a new season?',
      answer:
        "If you ran a league last season, open that season under Past seasons and choose Renew for this season next to the league. It starts again in the new season with the same name, description and privacy and a new join code, with you as its only member at first. Nobody is moved in without asking: everyone who was in it last season gets an email and sees the league under Your leagues, where they can join with one click or say no thanks (a new member can still join with the code). A league is renewed once, and only by its commissioner. The league's ladder page then lists its past seasons: the final ladder of each, its champions (first on points, then the lower margin), where you finished, and that season's week winners (open the list under the season to see who won each week, as its round honours named them).",
    },
    {
      question: 'What does my league ladder show while a match is on?',
      answer:
        'While a match of the current week is being played, your league\'s ladder shows, for each team, where you would stand in that league and your league points if that team won, for example "Sixers win: 2nd of 12, +1 pt (45 pts)". The +1 pt is what the result would add to your week ("no points" when it would add none). It counts only the live match: any other match still being played gives nobody points yet, and on the Super Sixes match the sixes hit so far are taken as the final count. It follows the match by itself, and when the result comes in it gives way to the real ladder on the same page, without a reload. You see it only in leagues you belong to, and only once the league\'s starting week has come. It is a what-if, never a score: only the result changes your points.',
    },
  ]
}

export function defaultHelpPages(sport: Sport): HelpPage[] {
  const c = COMPETITION[sport]
  return [
    {
      section: 'guidelines',
      title: 'Guidelines',
      body: [
        `Big Bash Tipping is a friendly game for fans of ${c.name}. To keep it that way:`,
        'Play with one account. Several accounts to win a prize are not allowed, and accounts found doing so are removed from the prize draw and rankings.',
        'Pick a team name and league names that you would be happy to read out in front of family. Names that are offensive, impersonate someone or advertise something may be changed or removed.',
        'Only invite people who want to be invited. League invitations and messages go by email, and they are limited each hour so they cannot be used for spam.',
        'Tips lock at the start time of each match and the server clock decides. If you think a result or a score is wrong, use the contact form and say which match and week it is about.',
      ].join('\n\n'),
    },
    {
      section: 'game-rules',
      title: 'Game rules',
      body: [
        `Every week (a round) of ${c.name} you tip the winner of each match. A match can be tipped until its start time; then it locks.`,
        'One correct tip scores 1 point. A match that ends without a winner (no result or abandoned) gives nobody a point.',
        `Super Sixes. One match each week is the margin game: predict the total number of sixes hit by both teams (0 to ${MARGIN_MAX}). If the fixture names none, it is the week's last match. Your margin is how far off you were. On equal points the lower margin ranks higher. No prediction (no tip on the match, or a tip without a number) counts as a prediction of 0, so your margin is the number of sixes hit.`,
        `Auto-tips. If you have not tipped a match when it locks, you get the away team. A correct auto-tip only counts while you have fewer than ${AUTOTIP_COUNT_LIMIT} correct tips of your own that week (counted over the week's finished matches, so an auto-tip counted early in the week stops counting once you reach ${AUTOTIP_COUNT_LIMIT}).`,
        "Autopilot. A setting of your own, off unless you turn it on. If you have not tipped a match by the time you chose (15 minutes, 1 hour or 3 hours before it starts), autopilot tips it for you: the favourite (the team more tippers have picked so far, the home team on a tie), the home team, or your team when it plays (else the favourite). On the Super Sixes match it predicts the middle of the other tippers' guesses (the lower of the two middle ones when their number is even; 0 when nobody has guessed). Unlike an auto-tip, which you get when a match locks, an autopilot tip is placed before the lockout and is an ordinary tip: it counts like one you made, it does not rule out the Clean Sweep Bonus, and you can change it until the match starts (then it is yours). It never replaces a tip you made, and it is never placed once the match has started. Autopilot looks at a match 3 hours, 1 hour and 15 minutes before its start; turned on later than your lead time for a match, it tips that match at its next look.",
        'Joining late. You are ranked from the moment you sign up, in the overall rankings, every week and your leagues. Matches that started before you joined give you nothing: no tip, no auto-tip, 0 points, and on a finished margin game a margin equal to the sixes hit. Two players who joined at different times but missed the same matches get the same numbers.',
        `Clean Sweep Bonus. Tip every match of the week correctly yourself, with no auto-tips, and you earn ${CLEAN_SWEEP_BONUS} bonus points when the week's last match finishes.`,
        'Golden Week. In the Golden Week (shown as DOUBLE POINTS) each correct tip is worth 2 points. The Clean Sweep Bonus stays at 2.',
        'Ranking. Tippers are ordered by points, highest first, then by margin, lowest first. Tippers level on both share a rank, and the next rank is skipped (1, 1, 3); tippers who share a rank are listed in the order they joined. Deactivated accounts are not ranked or counted while they are deactivated.',
        'Live matches. While a match is played its card shows the live score. "Ahead right now" is a reading of the rates, not a result: nobody is ahead during the first innings; in the chase, the chasing team is ahead while it scores at least as fast as it needs to (run rate so far against the rate required), and the other team otherwise, until the target is reached or the chasing team runs out of wickets or overs. A live score never changes your points; only the result does.',
        'Live projections. While a match is live you can see, for each side, the week points, total points, overall rank and league positions you would have if that side won. Every other live match of the week counts as still undecided (no points), and on the Super Sixes match the sixes hit so far are taken as the final count. Projections never change your stored scores: they are exactly what the match gives you if it does end that way with that many sixes.',
        'Worked example 1, an ordinary week of 5 matches. You tip all 5 and get 4 right: 4 points. Had you got all 5 right: 5 points plus the 2-point Clean Sweep Bonus, 7 points.',
        `Worked example 2, the Golden Week with 5 matches. You tip all 5 correctly: 5 x 2 = 10 points, plus the Clean Sweep Bonus of 2 (not doubled), 12 points.`,
        `Worked example 3, auto-tips. You forget 2 of 5 matches and get the away team in both. Of your 3 own tips, 3 are right, and both away teams win. You have 3 correct tips of your own, fewer than ${AUTOTIP_COUNT_LIMIT}, so both auto-tips count: 5 points, but no Clean Sweep Bonus because of the auto-tips.`,
        `Worked example 4, auto-tips that do not count. In a week of 7 matches you tip 5 and get 4 right, and your 2 auto-tips both win. With ${AUTOTIP_COUNT_LIMIT} correct tips of your own the auto-tips are correct but not counted (shown grey): 4 points.`,
        'Worked example 5, Super Sixes. You predict 14 sixes and the teams hit 17: your margin for the week is 3. Another tipper on the same points predicted 18: margin 1, so they rank above you.',
        "League honours. When a week is complete, the league members ranked first on that week's league ladder (points, then margin; level on both share it) win the week. Only weeks from the league's starting week count, and only ranked members.",
        `Can I still win? The most points anyone can still add is every unfinished match tipped correctly (doubled in the Golden Week) plus a ${CLEAN_SWEEP_BONUS}-point Clean Sweep Bonus for each unfinished week. You are still in it if your league total plus that beats the leader's total; out if it falls short. Exactly level: in while a Super Sixes match is still to finish (margins can still change), otherwise only with a margin no higher than the leader's. Worked example: 2 weeks of 6 matches are left, none in the Golden Week, so 2 x (6 + ${CLEAN_SWEEP_BONUS}) = 16 points are still to play for. The leader has 60: with 45 you are in (61), with 43 you are out (59), and with 44 you are level and still in while a Super Sixes match is unfinished.`,
        "Live projections on a league ladder. While a match of the current week is live, a league's ladder shows each member who counts in it their own position in that league and their league points if each team won, worked out exactly as the live projections above (other live matches undecided, the Super Sixes match's sixes so far taken as final). Your position is among the league's ranked members, in the ladder's order: points, then margin. When the result arrives the real ladder takes its place.",
      ].join('\n\n'),
    },
    {
      section: 'prizes',
      title: 'Prizes',
      body: [
        `The top prize is ${TOP_PRIZE}, for the tipper ranked first overall in ${c.short} tipping at the end of the regular season.`,
        'Ties for first place are split first by margin (the lower total Super Sixes margin wins); if tippers are still level, the prize is shared equally.',
        'To be eligible you must be an Australian resident aged 18 or over, play with a single account and follow the guidelines. The winner is contacted by email at the address of their account and has 14 days to reply.',
        'Prizes cannot be exchanged or transferred. Full conditions are in the Terms & Conditions.',
      ].join('\n\n'),
    },
  ]
}
