package edu.rice.cs.hpcdata.experiment.metric;

/** Stand-in (tests only). */
public class MetricValue {
    private final double value;

    public MetricValue(double value) { this.value = value; }

    public static boolean isAvailable(MetricValue v) { return v != null; }
    public double getValue() { return value; }
}
