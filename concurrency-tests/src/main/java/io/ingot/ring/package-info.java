/** jcstress tests of the in-process request ring's claim, publish and drain. */
package io.ingot.ring;
