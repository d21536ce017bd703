"""Hand histories: file formats (PHH, PokerStars text), replay and deck proofs."""
