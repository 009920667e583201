/** Placeholder package of the server module; see the module README. */
package io.ingot.server;
