import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import edu.rice.cs.hpcdata.experiment.Experiment;
import edu.rice.cs.hpcdata.experiment.LocalDatabaseRepresentation;
import edu.rice.cs.hpcdata.experiment.metric.BaseMetric;
import edu.rice.cs.hpcdata.experiment.metric.MetricValue;
import edu.rice.cs.hpcdata.experiment.scope.RootScopeType;
import edu.rice.cs.hpcdata.experiment.scope.Scope;
import edu.rice.cs.hpcdata.util.IProgressReport;

/** The reader matrix's batch driver for hpcviewer's data layer (hpcdata): one JVM for
 *  many databases. Each request on stdin, "TIMEOUT<tab>CONTENT<tab>PATH", opens PATH
 *  as hpcviewer's DatabaseLocal does (new Experiment().open(new
 *  LocalDatabaseRepresentation(dir, null, progress))) in a thread of its own with a
 *  4 MiB stack (hpcviewer's launcher gives -Xss4m), and answers one JSON line:
 *  outcome accepted / refused / crash / hang, the reader's message, and with CONTENT
 *  1 the metric list and the root's values. A thread past TIMEOUT CPU seconds (or
 *  ten times that on the wall clock) cannot be stopped: the answer is a hang and the
 *  JVM exits, and the matrix starts another for the next case. */
public class ViewerBatch {
    static volatile String answer;

    static String q(String s) {
        if (s == null) return "null";
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    /** JVM-raised failures and errors are crashes; what the reader (or the YAML
     *  parser it calls) throws on purpose, and I/O errors, are refusals. */
    static String outcome(Throwable t) {
        if (t instanceof Error) return "crash";
        if (t instanceof IOException) return "refused";
        if (t instanceof NullPointerException || t instanceof IndexOutOfBoundsException
            || t instanceof NegativeArraySizeException || t instanceof ClassCastException
            || t instanceof ArithmeticException || t instanceof java.nio.BufferUnderflowException
            || t instanceof java.nio.BufferOverflowException || t instanceof ArrayStoreException)
            return "crash";
        StackTraceElement[] st = t.getStackTrace();
        if (st.length == 0) return "crash";
        String top = st[0].getClassName();
        if (top.startsWith("edu.rice.cs.") || top.startsWith("org.yaml.snakeyaml.")) return "refused";
        return "crash";
    }

    static Throwable unwrap(Throwable t) {
        while (t.getCause() != null && (t instanceof java.util.concurrent.ExecutionException
               || t instanceof java.lang.reflect.InvocationTargetException
               || t instanceof java.util.concurrent.CompletionException
               || (t.getMessage() != null && t.getMessage().equals(t.getCause().toString()))))
            t = t.getCause();
        return t;
    }

    static String message(Throwable t) {
        String m = t.getClass().getName() + (t.getMessage() == null ? "" : ": " + t.getMessage().split("\n")[0]);
        if (m.length() > 300) m = m.substring(0, 300);
        StackTraceElement[] st = t.getStackTrace();
        if (st.length > 0) m += " (at " + st[0].getClassName() + "." + st[0].getMethodName() + ":" + st[0].getLineNumber() + ")";
        return m;
    }

    static String open(String path, boolean content) throws Exception {
        Experiment exp = new Experiment();
        exp.open(new LocalDatabaseRepresentation(new File(path), null, IProgressReport.dummy()));
        if (!content) return "{\"outcome\":\"accepted\"}";
        List<BaseMetric> metrics = exp.getMetricList();
        Scope root = exp.getRootScope(RootScopeType.CallingContextTree);
        StringBuilder b = new StringBuilder("{\"outcome\":\"accepted\",\"content\":{\"metrics\":[");
        for (int i = 0; i < metrics.size(); i++) {
            BaseMetric m = metrics.get(i);
            if (i > 0) b.append(',');
            b.append("{\"index\":").append(m.getIndex()).append(",\"name\":").append(q(m.getDisplayName()))
             .append(",\"type\":").append(q(String.valueOf(m.getMetricType())))
             .append(",\"partner\":").append(m.getPartner())
             .append(",\"class\":").append(q(m.getClass().getSimpleName()));
            if (m instanceof edu.rice.cs.hpcdata.experiment.metric.HierarchicalMetric)
                b.append(",\"variant\":").append(q(((edu.rice.cs.hpcdata.experiment.metric.HierarchicalMetric) m).getVariantLabel()));
            if (root != null) {
                MetricValue v = root.getMetricValue(m);
                b.append(",\"root\":");
                if (v == null || !MetricValue.isAvailable(v)) b.append("null");
                else b.append(q(Double.toString(v.getValue())));
            }
            b.append('}');
        }
        b.append("],\"root_children\":").append(root == null ? -1 : root.getChildren().size()).append("}}");
        return b.toString();
    }

    public static void main(String[] args) throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        // The answers go to the real stdout; whatever the reader prints, to stderr.
        java.io.PrintStream out = System.out;
        System.setOut(System.err);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        out.println("{\"version\":" + q(args.length > 0 ? args[0] : "hpcviewer") + "}");
        out.flush();
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) continue;
            String[] f = line.split("\t", 3);
            final long timeout = Long.parseLong(f[0]);
            final boolean content = f[1].equals("1");
            final String path = f[2];
            answer = null;
            Thread t = new Thread(null, () -> {
                String a;
                try {
                    a = open(path, content);
                } catch (Throwable e) {
                    Throwable u = unwrap(e);
                    a = "{\"outcome\":\"" + outcome(u) + "\",\"message\":" + q(message(u)) + "}";
                }
                answer = a;
            }, "case", 4L << 20);
            t.setDaemon(true);
            long start = System.nanoTime();
            t.start();
            boolean hung = false;
            while (t.isAlive()) {
                t.join(50);
                long cpu = mx.isThreadCpuTimeSupported() ? mx.getThreadCpuTime(t.getId()) : -1;
                long wall = System.nanoTime() - start;
                if (t.isAlive() && (cpu > timeout * 1_000_000_000L || wall > 10 * timeout * 1_000_000_000L)) {
                    hung = true;
                    break;
                }
            }
            if (hung) {
                out.println("{\"outcome\":\"hang\",\"message\":\"no answer within " + timeout + " s of CPU time\"}");
                out.flush();
                System.exit(3);
            }
            out.println(answer == null ? "{\"outcome\":\"crash\",\"message\":\"no answer\"}" : answer);
            out.flush();
        }
    }
}
