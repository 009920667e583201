"""Unit tests of Ingot's triton_python_backend_utils, run by PythonUtilsTest (`python3 -m unittest`)."""

import json
import unittest

import numpy as np

import triton_python_backend_utils as pb_utils


class TensorTest(unittest.TestCase):
    def test_numeric_tensor_keeps_its_array_and_type(self):
        array = np.arange(6, dtype=np.float32).reshape(2, 3)
        tensor = pb_utils.Tensor("X", array)
        self.assertEqual("X", tensor.name())
        self.assertEqual([2, 3], tensor.shape())
        self.assertEqual(11, tensor.triton_dtype())
        self.assertTrue(tensor.is_cpu())
        self.assertIs(array, tensor.as_numpy())

    def test_non_contiguous_and_foreign_byte_order_arrays_are_normalized(self):
        transposed = pb_utils.Tensor("T", np.arange(6, dtype=np.int32).reshape(2, 3).T)
        self.assertTrue(transposed.as_numpy().flags.c_contiguous)
        np.testing.assert_array_equal([[0, 3], [1, 4], [2, 5]], transposed.as_numpy())
        big_endian = pb_utils.Tensor("B", np.array([1.5, 2.5], dtype=">f8"))
        self.assertTrue(big_endian.as_numpy().dtype.isnative)
        self.assertEqual(12, big_endian.triton_dtype())

    def test_strings_become_a_bytes_tensor(self):
        tensor = pb_utils.Tensor("S", np.array(["a", "bé"]))
        self.assertEqual(13, tensor.triton_dtype())
        self.assertEqual(np.object_, tensor.as_numpy().dtype)

    def test_bad_tensors_are_refused_with_tritons_messages(self):
        with self.assertRaisesRegex(pb_utils.TritonModelException, "Tensor name cannot be an empty string."):
            pb_utils.Tensor("", np.zeros(1))
        with self.assertRaisesRegex(pb_utils.TritonModelException, "numpy dtype complex128 has no Triton data type"):
            pb_utils.Tensor("C", np.zeros(2, dtype=np.complex128))
        with self.assertRaisesRegex(pb_utils.TritonModelException, "DLPack does not have support for string"):
            pb_utils.Tensor("S", np.array([b"x"], dtype=np.object_)).to_dlpack()

    def test_dlpack_round_trip(self):
        array = np.arange(4, dtype=np.int64)
        back = pb_utils.Tensor.from_dlpack("D", pb_utils.Tensor("D", array).to_dlpack())
        np.testing.assert_array_equal(array, back.as_numpy())


class HelpersTest(unittest.TestCase):
    def test_bytes_serialization_round_trips(self):
        array = np.array([b"", b"abc", "grüße".encode("utf-8")], dtype=np.object_)
        wire = pb_utils.serialize_byte_tensor(array)
        self.assertEqual(b"\x00\x00\x00\x00\x03\x00\x00\x00abc", wire[:11])
        self.assertEqual(list(array), list(pb_utils.deserialize_bytes_tensor(wire)))
        self.assertEqual((), pb_utils.serialize_byte_tensor(np.array([], dtype=np.object_)))
        self.assertIsNone(pb_utils.serialize_byte_tensor(np.zeros(2)))

    def test_truncated_bytes_are_refused(self):
        with self.assertRaisesRegex(pb_utils.TritonModelException, "incomplete length field"):
            pb_utils.deserialize_bytes_tensor(b"\x01\x00")
        with self.assertRaisesRegex(pb_utils.TritonModelException, "string extends beyond buffer"):
            pb_utils.deserialize_bytes_tensor(b"\x05\x00\x00\x00ab")

    def test_type_helpers(self):
        self.assertIs(np.float32, pb_utils.triton_string_to_numpy("TYPE_FP32"))
        self.assertIs(np.object_, pb_utils.triton_string_to_numpy("TYPE_STRING"))
        self.assertEqual(np.int64, pb_utils.triton_to_numpy_type(9))
        self.assertEqual(13, pb_utils.numpy_to_triton_type(np.object_))
        self.assertEqual(1, pb_utils.numpy_to_triton_type(np.bool_))

    def test_config_lookups(self):
        config = {"input": [{"name": "A"}], "output": [{"name": "B", "data_type": "TYPE_FP32"}],
                  "model_transaction_policy": {"decoupled": False}}
        self.assertEqual({"name": "A"}, pb_utils.get_input_config_by_name(config, "A"))
        self.assertEqual("TYPE_FP32", pb_utils.get_output_config_by_name(config, "B")["data_type"])
        self.assertIsNone(pb_utils.get_output_config_by_name(config, "C"))
        self.assertFalse(pb_utils.using_decoupled_model_transaction_policy(config))


class RequestResponseTest(unittest.TestCase):
    def test_bls_request_outside_execute_is_refused(self):
        request = pb_utils.InferenceRequest(model_name="m", inputs=[pb_utils.Tensor("X", np.zeros(1))],
                                            requested_output_names=["Y"])
        with self.assertRaisesRegex(pb_utils.TritonModelException,
                                    "BLS is only supported during the 'execute' function."):
            request.exec()

    def test_bls_request_arguments_are_checked(self):
        with self.assertRaisesRegex(pb_utils.TritonModelException, "Correlation ID must be integer or string"):
            pb_utils.InferenceRequest(model_name="m", inputs=[], requested_output_names=[], correlation_id=1.5)
        with self.assertRaisesRegex(pb_utils.TritonModelException, "should not be empty"):
            pb_utils.InferenceRequest(model_name="m", inputs=[None], requested_output_names=[])
        with self.assertRaisesRegex(pb_utils.TritonModelException, "bool/int/str"):
            pb_utils.InferenceRequest(model_name="m", inputs=[], requested_output_names=[], parameters={"k": 1.5})
        request = pb_utils.InferenceRequest(model_name="m", inputs=[], requested_output_names=["Y", "Y"],
                                            parameters={"k": True})
        self.assertEqual(["Y"], request.requested_output_names())
        self.assertEqual({"k": True}, json.loads(request.parameters()))
        with self.assertRaisesRegex(pb_utils.TritonModelException,
                                    "BLS is only supported during the 'execute' function."):
            request.exec(decoupled=True)
        self.assertEqual("add_sub", pb_utils.InferenceRequest(model_name=np.array([b"add_sub"], dtype=np.object_)[0],
                                                              inputs=[], requested_output_names=[])._model_name)

    def test_response_sender_of_the_default_mode(self):
        request = pb_utils.InferenceRequest._of([], ["Y"], "m")
        sender = request.get_response_sender()
        response = pb_utils.InferenceResponse([pb_utils.Tensor("Y", np.zeros(1))])
        sender.send(response)
        with self.assertRaisesRegex(pb_utils.TritonModelException, "cannot send more than one response"):
            sender.send(response)
        sender.send(flags=pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL)
        with self.assertRaisesRegex(pb_utils.TritonModelException, "Response sender has been closed"):
            sender.send(flags=pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL)
        with self.assertRaisesRegex(pb_utils.TritonModelException, "Unsupported flag provided"):
            sender.send(response, flags=2)
        with self.assertRaisesRegex(pb_utils.TritonModelException, "rescheduling"):
            request.set_release_flags(pb_utils.TRITONSERVER_REQUEST_RELEASE_RESCHEDULE)

    def test_response_sender_of_a_decoupled_model(self):
        sent = []

        class Runtime:
            def send_response(self, state, response, flags):
                sent.append((state.handle, response, flags))

        previous, pb_utils._runtime = pb_utils._runtime, Runtime()
        try:
            request = pb_utils.InferenceRequest._of([], ["Y"], "m", handle=7, decoupled=True)
            sender = request.get_response_sender()
            self.assertIs(sender, request.get_response_sender())
            response = pb_utils.InferenceResponse([pb_utils.Tensor("Y", np.zeros(1))])
            sender.send(response)
            sender.send(response)
            with self.assertRaisesRegex(pb_utils.TritonModelException, "Inference Response object must be provided "
                                                                       "when the response flags is set to zero."):
                sender.send()
            sender.send(flags=pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL)
            with self.assertRaisesRegex(pb_utils.TritonModelException,
                                        "^Unable to send response. Response sender has been closed.$"):
                sender.send(response)
            self.assertEqual([(7, response, 0), (7, response, 0), (7, None, 1)], sent)
        finally:
            pb_utils._runtime = previous

    def test_metric_arguments_are_checked_before_the_server_is_asked(self):
        calls = []

        class Runtime:
            def call(self, payload):
                calls.append(payload)
                return 0, "", 0.0, len(calls)

            def call_later(self, payload):
                calls.append(payload)

        previous, pb_utils._runtime = pb_utils._runtime, Runtime()
        try:
            counter = pb_utils.MetricFamily("c", "a counter", pb_utils.MetricFamily.COUNTER)
            with self.assertRaisesRegex(pb_utils.TritonModelException,
                                        "^Failed to create metric. Labels must be a dictionary.$"):
                counter.Metric(labels=["a"])
            with self.assertRaisesRegex(pb_utils.TritonModelException, "Unexpected buckets found"):
                counter.Metric(labels={}, buckets=[1.0])
            metric = counter.Metric(labels={"k": "v"})
            with self.assertRaisesRegex(pb_utils.TritonModelException, "can only be incremented monotonically"):
                metric.increment(-1)
            with self.assertRaisesRegex(pb_utils.TritonModelException,
                                        "^Failed to set metric value: TRITONSERVER_METRIC_KIND_COUNTER does not "
                                        "support Set$"):
                metric.set(1)
            histogram = pb_utils.MetricFamily("h", "a histogram", pb_utils.MetricFamily.HISTOGRAM)
            with self.assertRaisesRegex(pb_utils.TritonModelException, "Missing required buckets"):
                histogram.Metric(labels={})
            asked = len(calls)
            del counter
            with self.assertRaisesRegex(pb_utils.TritonModelException, "'MetricFamily' has been deleted"):
                metric.increment(1)
            self.assertEqual(["metric_delete", "metric_family_delete"], [c["op"] for c in calls[asked:]])
            del histogram
        finally:
            pb_utils._runtime = previous

    def test_response_and_error(self):
        error = pb_utils.TritonError("bad", pb_utils.TritonError.INVALID_ARG)
        self.assertEqual(("bad", pb_utils.TritonError.INVALID_ARG), (error.message(), error.code()))
        response = pb_utils.InferenceResponse(error=error)
        self.assertTrue(response.has_error())
        self.assertEqual([], response.output_tensors())
        self.assertEqual(pb_utils.TritonError.INTERNAL, pb_utils.TritonError("x").code())
        with self.assertRaisesRegex(pb_utils.TritonModelException, "should not be empty"):
            pb_utils.InferenceResponse([None])


class ModelConfigTest(unittest.TestCase):
    def config(self, **fields):
        base = {"name": "m", "max_batch_size": 0, "input": [], "output": []}
        base.update(fields)
        return pb_utils.ModelConfig(json.dumps(base))

    def test_inputs_outputs_and_batching_are_completed(self):
        config = self.config(input=[{"name": "A", "data_type": "TYPE_INVALID", "dims": []}])
        config.add_input({"name": "A", "data_type": "TYPE_FP32", "dims": [4]})
        config.add_output({"name": "B", "data_type": "TYPE_FP32", "dims": [4]})
        config.set_max_batch_size(8)
        config.set_dynamic_batching()
        config.set_model_transaction_policy({"decoupled": False})
        completed = config.as_dict()
        self.assertEqual([{"name": "A", "data_type": "TYPE_FP32", "dims": [4]}], completed["input"])
        self.assertEqual(8, completed["max_batch_size"])
        self.assertEqual({}, completed["dynamic_batching"])

    def test_misuse_raises_tritons_value_errors(self):
        with self.assertRaisesRegex(ValueError, "configuration specified max_batch_size 8, but in auto-complete-config"
                                                " function for model 'm' specified max_batch_size 4"):
            self.config(max_batch_size=8).set_max_batch_size(4)
        with self.assertRaisesRegex(ValueError, "Configuration specified scheduling_choice as 'sequence_batching'"):
            self.config(sequence_batching={}).set_dynamic_batching()
        with self.assertRaisesRegex(ValueError, "input 'A' in auto-complete-config function for model 'm' is missing "
                                                "'dims' property."):
            self.config().add_input({"name": "A", "data_type": "TYPE_FP32"})
        with self.assertRaisesRegex(ValueError, "unable to load model 'm', configuration expects datatype TYPE_INT32 "
                                                "for output 'B', model provides TYPE_FP32"):
            self.config(output=[{"name": "B", "data_type": "TYPE_INT32", "dims": [1]}]).add_output(
                {"name": "B", "data_type": "TYPE_FP32", "dims": [1]})
        with self.assertRaisesRegex(ValueError, "trying to change decoupled property"):
            self.config(model_transaction_policy={"decoupled": False}).set_model_transaction_policy(
                {"decoupled": True})


if __name__ == "__main__":
    unittest.main()
