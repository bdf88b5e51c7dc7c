"""The game-neutral spine: Game/State, errors, options, registry, records, perft, generator."""
