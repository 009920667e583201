/**
 * The native libraries the FIL backend binds, as Maven Central ships them inside jars: where each one is inside its
 * jar ({@link io.ingot.fil.bundled.BundledLibrary}), extracting it once into a private cache folder, and loading it
 * with its downcall handles resolved once ({@link io.ingot.fil.bundled.NativeBinding}). A library that cannot be had
 * is not an error until a model needs it: every handle then throws a
 * {@link io.ingot.fil.bundled.NativeLibraryUnavailableException} naming the library and the reason.
 */
package io.ingot.fil.bundled;
