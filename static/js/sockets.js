// When a page's socket drops because its web process went away (a crash, a restart, a Redis
// restart that closed every socket), the page connects again at once to another process
// (the load balancer's choice) and gets the whole board. The first try waits only a little
// jitter, which spreads a process's pages over the others; a try that fails (a balancer not
// yet aware of the dead process) is followed by another within about a second, never by the
// doubling waits of the ws extension's default, which kept pages without their board for ten
// seconds and more.
htmx.config.wsReconnectDelay = (retries) =>
  retries === 0 ? 400 * Math.random() : 400 + 800 * Math.random();
