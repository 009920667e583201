"""Pre- and post-processing around resnet50, through BLS: what a Triton user writes in a Python model."""

import json

import numpy as np
import triton_python_backend_utils as pb_utils

SIZE = 224
MEAN = np.array([0.485, 0.456, 0.406], dtype=np.float32)
STD = np.array([0.229, 0.224, 0.225], dtype=np.float32)
TOP = 5


def preprocess(image):
    """HWC uint8 of any size -> NCHW float32 [1, 3, 224, 224], ImageNet-normalized."""
    height, width, _ = image.shape
    rows = (np.arange(SIZE) * height // SIZE).astype(np.intp)
    columns = (np.arange(SIZE) * width // SIZE).astype(np.intp)
    resized = image[rows[:, None], columns[None, :], :].astype(np.float32) / 255.0
    normalized = (resized - MEAN) / STD
    return np.ascontiguousarray(normalized.transpose(2, 0, 1)[None, ...])


def top_classes(logits):
    """The TOP most likely classes of [1, 1000] logits, with their softmax scores."""
    shifted = logits[0] - logits[0].max()
    probabilities = np.exp(shifted) / np.exp(shifted).sum()
    best = np.argsort(-probabilities, kind="stable")[:TOP]
    return best.astype(np.int64), probabilities[best].astype(np.float32)


class TritonPythonModel:
    def initialize(self, args):
        config = json.loads(args["model_config"])
        self.classifier = config["parameters"]["CLASSIFIER"]["string_value"]

    def execute(self, requests):
        responses = []
        for request in requests:
            image = pb_utils.get_input_tensor_by_name(request, "IMAGE").as_numpy()
            if image.shape[0] == 0 or image.shape[1] == 0:
                responses.append(pb_utils.InferenceResponse(error=pb_utils.TritonError(
                    "IMAGE has shape %s: it needs at least one pixel" % list(image.shape),
                    pb_utils.TritonError.INVALID_ARG)))
                continue
            classify = pb_utils.InferenceRequest(model_name=self.classifier,
                                                 inputs=[pb_utils.Tensor("input", preprocess(image))],
                                                 requested_output_names=["logits"])
            answer = classify.exec()
            if answer.has_error():
                responses.append(pb_utils.InferenceResponse(error=answer.error()))
                continue
            logits = pb_utils.get_output_tensor_by_name(answer, "logits").as_numpy()
            ids, scores = top_classes(logits)
            labels = np.array([("class_%d" % i).encode("utf-8") for i in ids], dtype=np.object_)
            responses.append(pb_utils.InferenceResponse(output_tensors=[
                pb_utils.Tensor("CLASS_IDS", ids), pb_utils.Tensor("SCORES", scores),
                pb_utils.Tensor("LABELS", labels)]))
        return responses
