"""Repair strategies that more than one rule uses, each with its proof obligations."""
