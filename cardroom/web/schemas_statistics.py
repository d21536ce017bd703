"""The answers of the statistics and ledger routes (docs/api.md, docs/statistics.md).

- ``GET /api/me/statistics``: ``StatisticsOut``, the viewer's figures over all and
  per game, and the running result hand by hand for the graph.
- ``GET /api/games/{id}/ledger``: ``LedgerOut``, each player's money at the table
  and who pays whom (``.csv``: the same as a download).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from cardroom.history.statistics import Figures, Ratio
from cardroom.service.ledgers import GameLedger
from cardroom.service.statistics import PlayerStatistics


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True)


class RatioOut(_Out):
    count: int = Field(description="How many times it happened.")
    chances: int = Field(description="Out of how many hands it could have.")
    percent: float | None = Field(
        description="count / chances in percent, one decimal; null: no chance yet."
    )

    @classmethod
    def of(cls, ratio: Ratio) -> RatioOut:
        return cls(count=ratio.count, chances=ratio.chances, percent=ratio.percent)


class FiguresOut(_Out):
    hands: int = Field(description="Finished hands the player was dealt into.")
    vpip: RatioOut = Field(
        description="Voluntarily put money in pre-flop, of hands with a pre-flop decision."
    )
    pfr: RatioOut = Field(description="Bet or raised pre-flop, of hands with a pre-flop decision.")
    three_bet: RatioOut = Field(description="Made the second raise pre-flop, of the chances to.")
    wtsd: RatioOut = Field(description="Went to showdown, of the hands that saw the flop.")
    wsd: RatioOut = Field(description="Won at showdown (W$SD), of the showdowns.")
    net_chips: int = Field(description="The result in chips over every hand, money and points.")
    net_cents: int = Field(
        description="The result in cents over the hands played for money (one chip is one cent)."
    )

    @classmethod
    def of(cls, f: Figures) -> FiguresOut:
        return cls(
            hands=f.hands,
            vpip=RatioOut.of(f.vpip),
            pfr=RatioOut.of(f.pfr),
            three_bet=RatioOut.of(f.three_bet),
            wtsd=RatioOut.of(f.wtsd),
            wsd=RatioOut.of(f.wsd),
            net_chips=f.net_chips,
            net_cents=f.net_cents,
        )


class GameFiguresOut(FiguresOut):
    game_id: int
    preset: str
    format: str
    pays_money: bool = Field(description="Played for money; false: an arena table's points.")


class GraphPointOut(_Out):
    hand_id: int
    game_id: int
    net: int = Field(description="This hand's result in chips.")
    total: int = Field(description="The running result up to and including this hand.")


class StatisticsOut(_Out):
    game_id: int | None = Field(description="The one game asked for (`game`), or null: every game.")
    overall: FiguresOut
    games: list[GameFiguresOut] = Field(description="Per game, the most recently played first.")
    graph: list[GraphPointOut] = Field(description="The running result, oldest hand first.")
    skipped: list[int] = Field(
        description="Ids of hands left out: their stored rows cannot be read."
    )
    capped: bool = Field(description="Only the latest 10,000 hands were read.")

    @classmethod
    def of(cls, s: PlayerStatistics) -> StatisticsOut:
        games = []
        for g in s.figures.games:
            info = s.games[g.game_id]
            base = FiguresOut.of(g.figures).model_dump()
            games.append(
                GameFiguresOut(
                    **base,
                    game_id=g.game_id,
                    preset=info.preset,
                    format=info.format,
                    pays_money=g.pays_money,
                )
            )
        return cls(
            game_id=s.game_id,
            overall=FiguresOut.of(s.figures.overall),
            games=games,
            graph=[
                GraphPointOut(hand_id=p.hand_id, game_id=p.game_id, net=p.net, total=p.total)
                for p in s.figures.graph
            ],
            skipped=list(s.skipped),
            capped=s.capped,
        )


class LedgerLineOut(_Out):
    user_id: int
    name: str
    seat: int | None = Field(description="Where they sit now; null once they have left.")
    buy_ins: int
    rebuys: int
    cash_outs: int
    refunds: int = Field(description="Buy-ins given back (left before the start, or cancelled).")
    settlements: int = Field(description="A per-hand table's hand results, signed.")
    prizes: int
    on_table: int = Field(description="Chips in front of them now, counted as if cashed out.")
    net: int = Field(description="Up (above 0) or down, in chips: cents at a money table.")
    place: int | None = Field(description="A tournament's finishing place, once known.")


class LedgerPaymentOut(_Out):
    payer_id: int
    payer: str
    payee_id: int
    payee: str
    amount: int


class LedgerOut(_Out):
    game_id: int
    format: str
    preset: str
    status: str
    pays_money: bool = Field(description="Money (one chip is one cent); false: arena points.")
    finished: bool = Field(description="A tournament with its winner.")
    players: list[LedgerLineOut] = Field(description="In the order they first sat down.")
    payments: list[LedgerPaymentOut] = Field(
        description="Who pays whom to settle the nets: largest debtor to largest creditor, "
        "at most one payment fewer than the players with a result."
    )
    unsettled: int = Field(
        description="What the payments leave unpaid (0: every chip is accounted for)."
    )

    @classmethod
    def of(cls, ledger: GameLedger) -> LedgerOut:
        return cls(
            game_id=ledger.game_id,
            format=ledger.format,
            preset=ledger.preset,
            status=ledger.status,
            pays_money=ledger.pays_money,
            finished=ledger.finished,
            players=[LedgerLineOut(**vars(line)) for line in ledger.players],
            payments=[LedgerPaymentOut(**vars(p)) for p in ledger.payments],
            unsettled=ledger.unsettled,
        )


class LedgerCsvText(_Out):
    """The ledger as CSV (text/csv): players, an empty row, payments."""

    text: str
