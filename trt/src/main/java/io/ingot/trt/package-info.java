/** Placeholder package of the trt module; see the module README. */
package io.ingot.trt;
