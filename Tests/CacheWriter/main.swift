// Filled in by the disk cache work: a writer process for the multi-process tests.
print("webimage-cache-writer")
