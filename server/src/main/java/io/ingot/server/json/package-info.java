/** JSON of the HTTP frontend: a writer straight into Netty buffers, tensor codecs, and the control-endpoint documents. */
package io.ingot.server.json;
