// The documentation's examples are compiled here: `make docs-check` writes each ```swift
// block of README.md and of the DocC catalogs into Generated/ (one file per block, kept
// out of git), builds this target and removes them again. Nothing here is run.
