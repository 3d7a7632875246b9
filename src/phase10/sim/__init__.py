"""Simulation at scale: odds of fresh deals, bot-against-bot games and tournaments."""
