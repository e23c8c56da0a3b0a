"""The fast path: cheap facts from the standard library's ast that say where a finding could be,
and the slicing of a module down to what those places reach. It may only ever be generous."""
