// Setup file of every test file. The suite runs files one after another in
// a few long-lived processes (vitest.config.ts: isolate false), so what a file
// leaves in its process must not reach the next: the service sets the
// process's umask to keep DATA_DIR private (infra/DataDir.ts), and a file made
// after that (embedded PostgreSQL's password file, read by the postgres user)
// was unreadable to the next file's child processes. Each file starts from
// the umask its process began with.
const startingUmask = ((globalThis as { __startingUmask?: number }).__startingUmask ??= process.umask())
process.umask(startingUmask)
