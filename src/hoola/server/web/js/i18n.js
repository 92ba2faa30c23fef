// English and Korean labels: chosen by the browser's language, switchable, kept in localStorage.
// Game words stay the games' own (Hoola's 땡큐, 스톱, 등록, 붙이기, 소빵, 대빵).

const EN = {
  "app.title": "Hoola & friends", "lang.switch": "한국어",
  "lobby.practice": "Practice against bots", "lobby.practice.go": "Play now",
  "lobby.open": "Open tables", "lobby.none": "No open tables yet: create one or practise.",
  "lobby.create": "Create a table", "lobby.history": "Finished games",
  "lobby.nohistory": "No finished games yet.", "lobby.refresh": "Refresh",
  "f.game": "Game", "f.preset": "Rules", "f.players": "Players", "f.name": "Your name",
  "f.seat": "Seat {n}", "f.person": "Person (open seat)", "f.bot": "Bot: {b}",
  "f.turn": "Turn time (s, 0 = none)", "f.claim": "Claim window (s)", "f.botdelay": "Bot pause (s)",
  "f.deals": "Deals (empty: to the game's end)", "f.who": "Who may join",
  "f.private": "Private: only people you send the invite link to",
  "f.public": "Public: listed in the lobby for anyone to join or watch",
  "f.options": "Rule options (JSON)", "f.seed": "Seed (optional: the same shuffles)", "f.create": "Create table", "f.strength": "Bot strength",
  "t.join": "Join", "t.watch": "Watch", "t.back": "Back to your seat", "t.replay": "Replay",
  "t.record": "Record", "t.seats": "Seats", "t.status": "Status", "t.empty": "open",
  "t.waiting": "waiting", "t.playing": "in play", "t.over": "over",
  "join.title": "Join table {id}", "join.as": "Join as player", "join.watch": "Watch only",
  "join.full": "No open seat: you may watch.",
  "w.invite": "Invite link", "w.copy": "Copy", "w.copied": "Copied",
  "w.start": "Start the game", "w.waitstart": "Waiting for the host to start",
  "w.givebot": "Give to bot", "w.waiting": "Waiting for players",
  "b.sort.suit": "Sort: suit", "b.sort.rank": "Sort: rank", "b.sort.groups": "Sort: melds",
  "b.sort.manual": "Sort: yours", "b.hint": "Hints", "b.pass": "Pass", "b.lobby": "Lobby",
  "b.leave": "Leave", "b.howto": "How to play", "b.send": "Send", "b.close": "Close", "b.result": "Result",
  "b.cancel": "Cancel", "b.clear": "Clear",
  "tab.log": "Log", "tab.chat": "Chat", "tab.score": "Score",
  "s.you": "you", "s.bot": "bot", "s.away": "away", "s.cards": "{n} cards", "s.card": "1 card",
  "s.turn": "to play", "s.stock": "Stock", "s.discard": "Discard pile", "s.trick": "Trick",
  "s.spectator": "You are watching", "s.reconnecting": "Reconnecting…",
  "s.decided": "Decided: waiting for the others", "s.winning": "winning",
  "why.over": "The game is not in play", "why.watch": "Spectators watch; they do not play",
  "why.turn": "Not your turn: {who}", "why.first": "Draw first",
  "why.not": "Not now: {prompt}", "why.cards": "The picked cards make no such move",
  "why.decided": "You have decided: wait for the others",
  "choose.title": "Which one?", "choose.more": "Pick cards to narrow the list",
  "hint.none": "No hint now", "hint.loading": "Thinking…",
  "res.title": "Deal {n} is over", "res.final": "Game over", "res.points": "Points",
  "res.pay": "This deal", "res.score": "Score",
  "claim.won": "Thank you! You took it: {action}",
  "claim.called": "{name}: Thank you!", "claim.claimed": "{name} claims: {action}",
  "claim.lost": "{winner} came first: your {action} did not stand",
  "timer.claim": "{s}s to claim", "timer.turn": "{s}s",
  "r.title": "Replay", "r.all": "All hands open", "r.as": "As {name} saw it",
  "r.deal": "Deal {n}", "r.step": "Step {k} of {n}", "r.play": "Play", "r.pause": "Pause",
  "r.dealt": "Dealt",
  "k.help": "Keys: 1–9, 0 pick cards (with Shift: 11–20) · Enter play · Esc pass/clear · s sort · h hints",
  // Tournaments (tournament.js, tournament-lobby.js)
  "tn.title": "Tournaments", "tn.none": "No tournaments yet.", "tn.create": "Create a tournament",
  "tn.format": "Format", "tn.swiss": "Swiss", "tn.knockout": "Knockout",
  "tn.blackpool": "Blackpool (Kalookie)", "tn.entrants": "Entrants",
  "tn.bots": "Bots take the places left", "tn.nobots": "People only",
  "tn.tablesize": "Players a table", "tn.rounds": "Rounds", "tn.deals": "Most deals a table",
  "tn.name": "Tournament name", "tn.options": "Rule options (JSON)", "tn.go": "Create tournament",
  "tn.open": "open for entries", "tn.playing": "in play", "tn.over": "over", "tn.view": "Open",
  "tn.entered": "{n} of {m} entered", "tn.enter": "Enter", "tn.start": "Start the tournament",
  "tn.startnote": "Bots ({b}) take the places left.", "tn.standings": "Standings",
  "tn.player": "Player", "tn.points": "Points", "tn.money": "Money", "tn.tables": "Tables",
  "tn.table": "Table {n}", "tn.stage.round": "Round {r}", "tn.stage.knockout": "Knockout round {r}",
  "tn.stage.qualifying": "Qualifying", "tn.stage.buy-in": "Buy-in table",
  "tn.stage.semi-final": "Semi-final", "tn.stage.final": "Final", "tn.watch": "Watch",
  "tn.seat": "Take your seat", "tn.bye": "{p}: bye ({s})", "tn.queue": "Buy-in queue",
  "tn.queue.empty": "Nobody waits.", "tn.closed": "Buy-ins are closed.",
  "tn.deciding": "Deciding whether to buy in: {names}",
  "tn.decide": "You are over the target: buy in? ({s}s left)", "tn.buyin": "Buy in",
  "tn.retire": "Retire", "tn.pot": "Pot: {p}", "tn.winner": "{name} wins the tournament!",
  "tn.record": "Download the record", "tn.events": "What happened", "tn.you": "you",
  "tn.out": "out", "tn.left": "left: {names}", "tn.back": "Lobby",
  "tn.entered.as": "You are entered as {name}.", "tn.place": "#",
  "tn.ev.open": "The tournament opens", "tn.ev.enter": "{p} enters",
  "tn.ev.start": "The tournament starts", "tn.ev.table": "Table {n} ({stage}): {players}",
  "tn.ev.bye": "{p} goes on without a table ({stage})", "tn.ev.leave": "{p} leaves table {n}",
  "tn.ev.buy-in": "{p} buys in", "tn.ev.retire": "{p} retires", "tn.ev.close": "Buy-ins close",
  "tn.ev.refund": "{p} gets the buy-in back", "tn.ev.result": "Table {n} ends: {places}",
  "tn.ev.finish": "{p} wins the tournament",
  // The table's motion, sound, result screen and announcements (feel.js, sound.js, result.js).
  "sound.on": "Sound on: click to mute", "sound.off": "Sound off: click to turn on",
  "res.continue": "Continue", "res.next-in": "Next deal in {s}s",
  "res.ready": "Ready: waiting for the others", "res.waiting-for": "Still reading: {names}",
  "res.log": "This deal's log", "res.replay-deal": "Replay this deal",
  "res.winner": "{name} wins the match", "res.tie": "{name} share the win",
  "res.rematch": "Rematch", "res.rematch-join": "Join the rematch",
  "res.lobby": "Back to the lobby", "res.record": "Download the record",
  "standin.time": "Time ran out: a bot played {name}'s turn",
  "standin.away": "{name} is away: a bot played their turn",
  "skip.claim": "{name} claimed out of turn: {skipped} skipped",
  "live.turn": "Your turn", "live.claim": "You may claim the discard",
  "f.result": "Result shown between deals (s)",
};

const KO = {
  "app.title": "훌라와 친구들", "lang.switch": "English",
  "lobby.practice": "봇과 연습하기", "lobby.practice.go": "바로 시작",
  "lobby.open": "열린 테이블", "lobby.none": "아직 열린 테이블이 없습니다. 만들거나 연습해 보세요.",
  "lobby.create": "테이블 만들기", "lobby.history": "끝난 게임",
  "lobby.nohistory": "끝난 게임이 아직 없습니다.", "lobby.refresh": "새로고침",
  "f.game": "게임", "f.preset": "규칙", "f.players": "인원", "f.name": "이름",
  "f.seat": "{n}번 자리", "f.person": "사람 (빈 자리)", "f.bot": "봇: {b}",
  "f.turn": "턴 시간 (초, 0 = 무제한)", "f.claim": "땡큐 시간 (초)", "f.botdelay": "봇 대기 (초)",
  "f.deals": "판 수 (비우면 게임 끝까지)", "f.who": "누가 들어올 수 있나요",
  "f.private": "비공개: 초대 링크를 받은 사람만",
  "f.public": "공개: 로비에 올려 누구나 참가하거나 구경",
  "f.options": "규칙 옵션 (JSON)", "f.seed": "시드 (선택: 같은 셔플)", "f.create": "테이블 만들기", "f.strength": "봇 실력",
  "t.join": "참가", "t.watch": "관전", "t.back": "내 자리로", "t.replay": "다시보기",
  "t.record": "기보", "t.seats": "자리", "t.status": "상태", "t.empty": "빈 자리",
  "t.waiting": "대기 중", "t.playing": "게임 중", "t.over": "종료",
  "join.title": "테이블 {id} 참가", "join.as": "플레이어로 참가", "join.watch": "관전만",
  "join.full": "빈 자리가 없습니다. 관전할 수 있습니다.",
  "w.invite": "초대 링크", "w.copy": "복사", "w.copied": "복사됨",
  "w.start": "게임 시작", "w.waitstart": "방장이 시작하기를 기다리는 중",
  "w.givebot": "봇에게", "w.waiting": "플레이어를 기다리는 중",
  "b.sort.suit": "정렬: 무늬", "b.sort.rank": "정렬: 숫자", "b.sort.groups": "정렬: 조합",
  "b.sort.manual": "정렬: 직접", "b.hint": "힌트", "b.pass": "패스", "b.lobby": "로비",
  "b.leave": "나가기", "b.howto": "게임 방법", "b.send": "보내기", "b.close": "닫기", "b.result": "결과",
  "b.cancel": "취소", "b.clear": "선택 해제",
  "tab.log": "기록", "tab.chat": "채팅", "tab.score": "점수",
  "s.you": "나", "s.bot": "봇", "s.away": "자리 비움", "s.cards": "{n}장", "s.card": "1장",
  "s.turn": "차례", "s.stock": "더미", "s.discard": "버린 패", "s.trick": "트릭",
  "s.spectator": "관전 중", "s.reconnecting": "다시 연결하는 중…",
  "s.decided": "결정함: 다른 사람을 기다리는 중", "s.winning": "이기는 중",
  "why.over": "게임 중이 아닙니다", "why.watch": "관전자는 플레이할 수 없습니다",
  "why.turn": "내 차례가 아닙니다: {who}", "why.first": "먼저 뽑으세요",
  "why.not": "지금은 안 됩니다: {prompt}", "why.cards": "고른 카드로는 할 수 없습니다",
  "why.decided": "결정했습니다: 다른 사람을 기다리세요",
  "choose.title": "어느 것으로?", "choose.more": "카드를 골라 목록을 줄이세요",
  "hint.none": "지금은 힌트가 없습니다", "hint.loading": "생각하는 중…",
  "res.title": "{n}판 끝", "res.final": "게임 끝", "res.points": "점수",
  "res.pay": "이번 판", "res.score": "누적",
  "claim.won": "땡큐! 가져왔습니다: {action}",
  "claim.called": "{name}: 땡큐!", "claim.claimed": "{name}: {action} 가져감",
  "claim.lost": "늦었습니다: {winner} (내 {action} 무효)",
  "timer.claim": "땡큐 {s}초", "timer.turn": "{s}초",
  "r.title": "다시보기", "r.all": "모든 패 공개", "r.as": "{name}의 시점",
  "r.deal": "{n}판", "r.step": "{n}수 중 {k}", "r.play": "재생", "r.pause": "멈춤",
  "r.dealt": "배분",
  "k.help": "키: 1–9, 0 카드 선택 (Shift와 함께: 11–20) · Enter 실행 · Esc 패스/해제 · s 정렬 · h 힌트",
  // Tournaments (tournament.js, tournament-lobby.js)
  "tn.title": "토너먼트", "tn.none": "아직 토너먼트가 없습니다.", "tn.create": "토너먼트 만들기",
  "tn.format": "방식", "tn.swiss": "스위스", "tn.knockout": "녹아웃",
  "tn.blackpool": "블랙풀 (칼루키)", "tn.entrants": "참가 인원",
  "tn.bots": "남은 자리는 봇이 채움", "tn.nobots": "사람만",
  "tn.tablesize": "테이블당 인원", "tn.rounds": "라운드 수", "tn.deals": "테이블당 최대 판 수",
  "tn.name": "토너먼트 이름", "tn.options": "규칙 옵션 (JSON)", "tn.go": "토너먼트 만들기",
  "tn.open": "참가 접수 중", "tn.playing": "진행 중", "tn.over": "종료", "tn.view": "보기",
  "tn.entered": "{m}명 중 {n}명 참가", "tn.enter": "참가", "tn.start": "토너먼트 시작",
  "tn.startnote": "남은 자리는 봇({b})이 채웁니다.", "tn.standings": "순위",
  "tn.player": "플레이어", "tn.points": "점수", "tn.money": "금액", "tn.tables": "테이블",
  "tn.table": "{n}번 테이블", "tn.stage.round": "{r}라운드", "tn.stage.knockout": "녹아웃 {r}라운드",
  "tn.stage.qualifying": "예선", "tn.stage.buy-in": "바이인 테이블",
  "tn.stage.semi-final": "준결승", "tn.stage.final": "결승", "tn.watch": "관전",
  "tn.seat": "내 자리로", "tn.bye": "{p}: 부전승 ({s})", "tn.queue": "바이인 대기열",
  "tn.queue.empty": "대기자가 없습니다.", "tn.closed": "바이인이 마감되었습니다.",
  "tn.deciding": "바이인 결정 중: {names}",
  "tn.decide": "목표 점수를 넘었습니다. 바이인 하시겠습니까? ({s}초 남음)", "tn.buyin": "바이인",
  "tn.retire": "기권", "tn.pot": "상금: {p}", "tn.winner": "{name} 님이 우승했습니다!",
  "tn.record": "기록 내려받기", "tn.events": "진행 기록", "tn.you": "나",
  "tn.out": "탈락", "tn.left": "나감: {names}", "tn.back": "로비",
  "tn.entered.as": "{name}(으)로 참가했습니다.", "tn.place": "#",
  "tn.ev.open": "토너먼트가 열렸습니다", "tn.ev.enter": "{p} 참가",
  "tn.ev.start": "토너먼트 시작", "tn.ev.table": "{n}번 테이블 ({stage}): {players}",
  "tn.ev.bye": "{p}: 테이블 없이 진출 ({stage})", "tn.ev.leave": "{p}: {n}번 테이블에서 나감",
  "tn.ev.buy-in": "{p}: 바이인", "tn.ev.retire": "{p}: 기권", "tn.ev.close": "바이인 마감",
  "tn.ev.refund": "{p}: 바이인 환불", "tn.ev.result": "{n}번 테이블 종료: {places}",
  "tn.ev.finish": "{p} 우승",
  "sound.on": "소리 켜짐: 눌러서 끄기", "sound.off": "소리 꺼짐: 눌러서 켜기",
  "res.continue": "계속", "res.next-in": "다음 판까지 {s}초",
  "res.ready": "준비 완료: 다른 사람을 기다리는 중", "res.waiting-for": "아직 보는 중: {names}",
  "res.log": "이번 판 기록", "res.replay-deal": "이번 판 다시보기",
  "res.winner": "{name} 우승", "res.tie": "{name} 공동 우승",
  "res.rematch": "한 판 더", "res.rematch-join": "재대결 참가",
  "res.lobby": "로비로", "res.record": "기보 내려받기",
  "standin.time": "시간 초과: 봇이 {name} 대신 두었습니다",
  "standin.away": "{name} 자리 비움: 봇이 대신 두었습니다",
  "skip.claim": "{name}이(가) 차례 밖에서 가져감: {skipped} 건너뜀",
  "live.turn": "내 차례입니다", "live.claim": "버린 패를 가져올 수 있습니다",
  "f.result": "판 사이 결과 보기 (초)",
};

const DICTS = { en: EN, ko: KO };

// The server's refusals in Korean, by their code; in English (and for a code not listed) the
// server's own one-line message is shown, which names the seat, card or number at issue.
const KO_ERRORS = {
  "already-decided": "이미 결정했습니다. 다른 사람을 기다리세요.",
  "already-started": "게임이 이미 시작되었습니다.",
  "bad-action": "그 수를 읽을 수 없습니다.",
  "bad-chat": "채팅 메시지가 올바르지 않습니다.",
  "bad-invite": "초대 링크가 맞지 않습니다.",
  "bad-json": "메시지를 읽을 수 없습니다.",
  "bad-name": "이름은 글자, 숫자, _ 와 - 로만 지어 주세요.",
  "bad-player-count": "이 게임은 그 인원으로 할 수 없습니다.",
  "bad-request": "알 수 없는 요청입니다.",
  "bad-token": "이 자리의 열쇠가 맞지 않습니다. 로비에서 다시 참가하세요.",
  "bad-type": "알 수 없는 메시지입니다.",
  "binary-frame": "메시지를 읽을 수 없습니다.",
  "hello-first": "먼저 인사(hello)를 보내야 합니다.",
  "hello-timeout": "연결 후 10초 안에 인사가 없었습니다.",
  "internal": "서버가 그 메시지를 처리하지 못했습니다.",
  "moved": "테이블이 다른 서버로 옮겨졌습니다. 다시 연결하세요.",
  "must-act": "지금은 넘길 수 없습니다. 수를 두세요.",
  "name-taken": "그 이름은 이미 이 테이블에 있습니다.",
  "no-table": "그런 테이블이 없습니다.",
  "not-host": "방장만 할 수 있습니다.",
  "not-over": "게임이 아직 끝나지 않았습니다.",
  "not-playing": "게임이 진행 중이 아닙니다.",
  "not-seated": "이 자리를 떠났습니다. 이제 봇이 둡니다.",
  "not-your-seat": "이 랭크전 자리는 다른 계정의 자리입니다. 그 계정으로 로그인하세요.",
  "rated-hint": "랭크전에서는 힌트를 쓸 수 없습니다.",
  "not-your-seat": "자기 자리의 수만 둘 수 있습니다.",
  "out-of-turn": "당신의 차례가 아닙니다.",
  "rate-limited": "너무 빠릅니다. 잠시 후에 다시 보내세요.",
  "seat-empty": "빈 자리가 있습니다. 초대하거나 봇에게 맡기세요.",
  "seat-taken": "그 자리는 이미 찼습니다.",
  "spectator": "관전자는 수를 둘 수 없습니다.",
  "stale": "판이 바뀌었습니다. 새 상태를 보고 다시 두세요.",
  "table-busy": "테이블이 서버 사이를 옮기는 중입니다. 다시 시도하세요.",
  "table-full": "빈 자리가 없습니다. 관전할 수 있습니다.",
  "too-large": "메시지가 너무 깁니다.",
  "unknown-bot": "그런 봇은 없습니다.",
  "window-closed": "땡큐 시간이 끝났습니다.",
  "between-deals": "판이 끝났습니다. 모두 결과를 보면 다음 판을 돌립니다.",
  "rated-rematch": "랭크전의 재대결은 로비에서 새 랭크전으로 만드세요.",
  // Tournaments
  "no-tournament": "그런 토너먼트가 없습니다.",
  "tournament-full": "토너먼트 정원이 찼습니다.",
  "started": "토너먼트가 이미 시작되어 참가할 수 없습니다.",
  "not-deciding": "결정할 바이인이 없습니다.",
  "bad-settings": "토너먼트 설정이 올바르지 않습니다.",
  "bad-entrants": "참가 인원이 이 방식에 맞지 않습니다.",
  "entered": "이 계정은 이미 참가했습니다.",
  "too-many-tournaments": "접수 중인 토너먼트가 너무 많습니다.",
};

/** A refusal from the server (its ``code`` and English ``message``) in the current language. */
export function errorText(code, message) {
  return (lang === "ko" && KO_ERRORS[code]) || message;
}

/** More labels ({en, ko}) and Korean refusals ({code: text}) from a page's own module (the
 * accounts' pages keep theirs in js/account-texts.js). */
export function addTexts(more, koErrors = {}) {
  Object.assign(EN, more.en || {});
  Object.assign(KO, more.ko || {});
  Object.assign(KO_ERRORS, koErrors);
}

export function currentLang() {
  const saved = localStorage.getItem("hoola.lang");
  if (saved && DICTS[saved]) return saved;
  return (navigator.language || "en").toLowerCase().startsWith("ko") ? "ko" : "en";
}

let lang = currentLang();

export function getLang() { return lang; }

/** Set the language, remember it and relabel the page. */
export function setLang(next) {
  lang = DICTS[next] ? next : "en";
  localStorage.setItem("hoola.lang", lang);
  document.documentElement.lang = lang;
  applyLabels(document);
  for (const fn of listeners) fn(lang);
}

const listeners = [];
export function onLangChange(fn) { listeners.push(fn); }

/** The label for ``key`` in the current language with {placeholders} filled. */
export function t(key, vars = {}, extra = null) {
  const dict = Object.assign({}, DICTS[lang], extra && extra[lang]);
  const base = Object.assign({}, EN, extra && extra.en);
  let text = dict[key] ?? base[key] ?? key;
  for (const [k, v] of Object.entries(vars)) text = text.replaceAll(`{${k}}`, String(v));
  return text;
}

/** Fill every [data-i18n] element's text (and [data-i18n-title] its title). */
export function applyLabels(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
  for (const node of root.querySelectorAll("[data-i18n-placeholder]")) {
    node.placeholder = t(node.dataset.i18nPlaceholder);
  }
}

/** A button switching between English and Korean. */
export function langButton(button) {
  button.textContent = t("lang.switch");
  button.addEventListener("click", () => setLang(lang === "ko" ? "en" : "ko"));
  onLangChange(() => { button.textContent = t("lang.switch"); });
  document.documentElement.lang = lang;
}
