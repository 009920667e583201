java -jar benchmarks/target/benchmarks.jar OverheadBenchmark -t 1 -f 1 -p idle=BLOCKING,SPINNING
