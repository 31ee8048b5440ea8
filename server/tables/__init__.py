"""The table runtime: one single-writer table per running match, the commit batcher,
the WebSocket protocol's messages and recovery after a restart."""
