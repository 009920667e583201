/** KServe v2 over HTTP/REST on Netty, with Triton's binary tensor extension and compression. */
package io.ingot.server.http;
