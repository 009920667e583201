java -jar benchmarks/target/benchmarks.jar RingIntakeBenchmark -t 2 -f 2
