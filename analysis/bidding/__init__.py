"""Bidding studies: Klabberjass and Carabin bid evaluation, the auction equilibrium, sinking."""
