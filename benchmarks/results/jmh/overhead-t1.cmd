java -jar benchmarks/target/benchmarks.jar OverheadBenchmark|FloorBenchmark -t 1
