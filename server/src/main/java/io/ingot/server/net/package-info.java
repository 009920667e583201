/**
 * What every network listener shares to stay within bounds under hostile or broken clients: a cap on open
 * connections and accept failures that pause accepting instead of spinning
 * ({@link io.ingot.server.net.GuardedServerSocketChannel}),
 * and logging that says once per interval what was refused instead of once per connection or request
 * ({@link io.ingot.server.net.RateLimitedLog}), and client text echoed in messages cut to a bounded length
 * ({@link io.ingot.server.net.ClientText}).
 */
package io.ingot.server.net;
