/** Placeholder package of the ring module; see the module README. */
package io.ingot.ring;
