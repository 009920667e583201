java -jar benchmarks/target/benchmarks.jar OverheadBenchmark -t 16 -f 1
