"""Reporters: turn results into text for people or machines. They never re-parse."""
