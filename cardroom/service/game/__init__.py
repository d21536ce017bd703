"""One game's commands, one way down: a command is data (``commands``), who may send
it is data (``who``), and ``pipeline.run`` is the only road that opens a game's unit
of work (``cardroom.service.game_tx.GameTx``) for a command."""
