"""The Tarock family layer: what the 54-card games (and partly Bayerisches Tarock) share."""
