/** Placeholder package of the runtime module; see the module README. */
package io.ingot.api;
