/**
 * A writer of TorchScript archives (the {@code model.pt} files {@code torch.jit.save} produces): a module of one class
 * with a {@code forward} in TorchScript source and tensor parameters, pickled and zipped as PyTorch's serializer does.
 * It makes the backend's test models and the example repository's TorchScript model without Python.
 */
package io.ingot.pytorch.script;
