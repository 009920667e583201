/** jcstress tests of the statistics cells: a snapshot never holds half a batch. */
package io.ingot.stats;
