"""The bots' levels: the same decision procedure (``cardroom.bots.policy``) with
different numbers.

- ``beginner``: loose and passive. Plays far too many hands, limps into pots, calls
  with too little (it compares equity against *random* hands with the pot odds and
  needs less than they say), bets only strong hands and small, hardly ever bluffs.
- ``regular``: tight and aggressive. Plays a standard range for its position,
  raises rather than limps, reads the opponents' ranges from what they did, bets
  two thirds of the pot for value, semi-bluffs draws, bluffs now and then.
- ``shark``: balanced. A little wider than the regular, reads ranges too, mixes its
  sizes (half pot, two thirds, pot), slow-plays some monsters, bluffs and re-raises
  light more often, and bluffs with the same sizes it bets for value.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LEVELS", "Level", "level"]


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    # pre-flop
    looseness: float  # multiplies the opening ranges (fraction of hands by position)
    limp: float  # chance to call instead of raising a playable unopened hand
    open_size: tuple[float, ...]  # opening raise, in big blinds (plus one per limper)
    three_bet_bluff: float  # chance to re-raise a single raise with a non-premium hand
    # after the flop
    call_margin: float  # equity above the pot odds needed to call (negative: loose)
    value_bet: float  # strength (per-opponent equity) to bet when checked to
    value_raise: float  # strength to raise a bet
    aggression: float  # chance to bet or raise when strong enough (else check or call)
    bluff: float  # chance to bet a weak hand when checked to (few opponents)
    semi_bluff: float  # chance to bet or raise a draw
    sizes: tuple[float, ...]  # bet sizes to choose from, as fractions of the pot
    polarised: bool  # size by strength: big with the best hands and the bluffs
    # how it judges hands
    reads: bool  # narrow the opponents' ranges from their actions (else: random hands)
    samples: int  # deals sampled per equity estimate


BEGINNER = Level(
    name="beginner",
    looseness=1.9,
    limp=0.75,
    open_size=(2.0,),
    three_bet_bluff=0.0,
    call_margin=-0.05,
    value_bet=0.72,
    value_raise=0.88,
    aggression=0.45,
    bluff=0.02,
    semi_bluff=0.05,
    sizes=(0.5,),
    polarised=False,
    reads=False,
    samples=600,
)

REGULAR = Level(
    name="regular",
    looseness=1.0,
    limp=0.0,
    open_size=(2.5,),
    three_bet_bluff=0.03,
    call_margin=0.02,
    value_bet=0.6,
    value_raise=0.75,
    aggression=0.85,
    bluff=0.1,
    semi_bluff=0.4,
    sizes=(0.66,),
    polarised=False,
    reads=True,
    samples=1200,
)

SHARK = Level(
    name="shark",
    looseness=1.15,
    limp=0.0,
    open_size=(2.2, 2.5, 3.0),
    three_bet_bluff=0.08,
    call_margin=0.0,
    value_bet=0.57,
    value_raise=0.72,
    aggression=0.8,
    bluff=0.22,
    semi_bluff=0.6,
    sizes=(0.5, 0.66, 1.0),
    polarised=True,
    reads=True,
    samples=1500,
)

LEVELS: dict[str, Level] = {lv.name: lv for lv in (BEGINNER, REGULAR, SHARK)}


def level(name: str) -> Level:
    """The level called ``name`` (beginner, regular or shark)."""
    try:
        return LEVELS[name]
    except KeyError:
        known = ", ".join(LEVELS)
        raise ValueError(f"There is no bot level {name!r}: choose one of {known}.") from None
