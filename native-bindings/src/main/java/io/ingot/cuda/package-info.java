/** Placeholder package of the native-bindings module; see the module README. */
package io.ingot.cuda;
