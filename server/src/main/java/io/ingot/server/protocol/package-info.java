/** What the HTTP and gRPC frontends share: the in-flight call and its output placement, tensor layout rules, reserved request parameters, versions and the extension list. */
package io.ingot.server.protocol;
