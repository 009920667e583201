java -jar benchmarks/target/benchmarks.jar OverheadBenchmark -t 1 -f 1 -bm avgt -tu us -prof gc
