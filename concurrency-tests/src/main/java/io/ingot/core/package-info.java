/**
 * jcstress tests of the core's package-private protocols (they live in the core's package to reach them):
 * {@link io.ingot.core.OrderedDeliveryStress}.
 */
package io.ingot.core;
