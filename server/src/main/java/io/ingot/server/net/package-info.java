/**
 * What every network listener shares to stay within bounds under hostile or broken clients: a cap on open
 * connections and accept failures that pause accepting instead of spinning
 * ({@link io.ingot.server.net.GuardedServerSocketChannel}),
 * and logging that says once per interval what was refused instead of once per connection or request
 * ({@link io.ingot.server.net.RateLimitedLog}).
 */
package io.ingot.server.net;
