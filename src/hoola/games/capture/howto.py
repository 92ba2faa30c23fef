"""How to play each capture game, in a few sentences for a newcomer (``hoola rules sedma``...);
the rulings are in :mod:`hoola.games.capture.rules` and ``shared/spec/capture-rules.md``."""

from __future__ import annotations

from hoola.core.words import phrases

__all__ = ["HOW_TO_PLAY", "PRESET_TITLES", "TRICK"]

PRESET_TITLES = {
    "hola": "Hola", "sedma": "Sedma", "sedmice": "Sedmice", "sedmice-croatian": "Croatian Sedmice",
    "ristikontra": "Ristikontra", "ristiklappi": "Ristiklappi",
}
"""Each preset's name: each is a game of its own, known by it."""

phrases({f"preset.capture.{name}": title for name, title in PRESET_TITLES.items()})

TRICK = (
    "The player after the dealer leads a card; each other player then plays any card (there is "
    "no duty to follow). A later card of the led rank{wild} takes the lead, and whoever holds it "
    "when the trick ends takes the cards in it.{fight} After each trick everyone draws up to "
    "{hand} cards from the stock, the trick's winner first, and the winner leads the next; "
    "when the stock is empty the hands are played out."
)
"""How a trick goes, filled in by each game's wilds, fighting and hand size."""

_FIGHT = (" When everyone has played, a leader who is not winning may fight on with another "
          "card of the led rank or a wild (everyone plays again), or stop.")


def _trick(wild: str, hand: int, fight: bool = True) -> str:
    return TRICK.format(wild=wild, hand=hand, fight=_FIGHT if fight else "")


HOW_TO_PLAY: dict[str, str] = {
    "hola": (
        "Hola is a capture game for 2 or 4 players (partners sit opposite; 6 with two packs), "
        "played with 52 cards, four in each hand. The object is to capture tricks holding aces "
        "and tens, worth 10 points each, and the last trick, worth 10 more. "
        + _trick(" or a wild card (any 7 or 2)", 4)
        + " Capturing every ace, every ten and the last trick is a Hola: that hand's points "
        "count double. The game ends when a side has reached 250 points at the end of a hand."
    ),
    "sedma": (
        "Sedma is a capture game for 2, 3 or 4 players (partners sit opposite), played with 32 "
        "cards (A K Q J T 9 8 7), four in each hand. The object is to capture aces and tens, "
        "worth 10 points each, and the last trick, worth 10 more (90 in all). "
        + _trick(" or any 7 (the wild cards)", 4)
        + " After each hand the side with more points scores a game point, 2 for all 90 points, "
        "3 for every trick. The game ends when a side reaches 10 game points."
    ),
    "sedmice": (
        "Sedmice is Sedma with talk, for 2 or 4 players (partners sit opposite): played with 32 "
        "cards (A K Q J T 9 8 7), four in each hand, the sevens wild. The object is to "
        "capture aces and tens, worth 10 points each, and the last trick, worth 10 more. "
        + _trick(" or any 7", 4)
        + " Before playing you may give the table one signal (ubij: take it, pusti: let it go, "
        "napuni: load it with points), and once the stock is gone you see your partner's hand. "
        "Card points add up from hand to hand; the game ends when a side reaches 120."
    ),
    "sedmice-croatian": (
        "Croatian Sedmice is Sedmice scored by game points: 32 cards (A K Q J T 9 8 7), four in "
        "each hand, the sevens wild, partners opposite, signals allowed. The object is to "
        "capture aces and tens, worth 10 points each (no points for the last trick). "
        + _trick(" or any 7", 4)
        + " After each hand the side with more card points scores 1 game point, 2 for every "
        "point card, 3 for every trick. The game ends when a side reaches 12 game points."
    ),
    "ristikontra": (
        "Ristikontra is a capture game for 2 or 4 players (partners sit opposite), played with "
        "52 cards, six in each hand, with no wild cards. The object is to capture card points: "
        "A 11, T 10, K 4, Q 3, J 2 (120 in all). "
        + _trick("", 6, fight=False)
        + " Instead of playing from your hand you may play the top card of the stock in the "
        "dark, and then draw nothing. 61 points or more in a hand score a game point, all 120 "
        "two; the game ends when a side reaches 7 game points."
    ),
    "ristiklappi": (
        "Ristiklappi is Ristikontra with five cards each and queens to avoid: 52 cards, no wild "
        "cards, partners opposite. The object is to stay clean and capture card points: A 11, "
        "T 10, K 4, Q 3, J 2. "
        + _trick("", 5, fight=False)
        + " A side that wins a queen while the stock lasts is dirty and must clean itself later "
        "by winning a trick with a king and no queen. Each hand is a game: a clean side beats a "
        "dirty one whatever the points; both clean, the higher card points win. Play as many "
        "games as you like."
    ),
}
"""Each capture game's how-to-play, by its preset name."""
