{{/* Labels every object of this chart carries. */}}
{{- define "gcushare.labels" -}}
app.kubernetes.io/part-of: gcushare
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/instance: {{ .Release.Name }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{/* The image reference: repository@digest when pinned, else
repository:tag (tag defaults to the chart's appVersion). */}}
{{- define "gcushare.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}
{{- end -}}

{{/* memoryUnit as the flag expects it ("1", "0.1", ...), whether the value
was given as a string or a number. */}}
{{- define "gcushare.memoryUnit" -}}
{{ .Values.memoryUnit | toString }}
{{- end -}}

{{/* The node selector of the node agents: the sharing label, always. */}}
{{- define "gcushare.nodeSelector" -}}
{{- $selector := merge (dict) (.Values.nodeSelector | default (dict)) -}}
{{- $_ := set $selector "enflame.com/gcushare" "true" -}}
{{ toYaml $selector }}
{{- end -}}

{{/* Prometheus scrape annotations of a pod serving /metrics on the port
given as the context. */}}
{{- define "gcushare.scrapeAnnotations" -}}
prometheus.io/scrape: "true"
prometheus.io/port: {{ . | quote }}
prometheus.io/path: /metrics
{{- end -}}

{{/* The classic node agents' affinity: the user's `affinity`, plus a
required term keeping them off the nodes of the DRA mode
(enflame.com/gcushare-mode=dra), so that no node serves the GCU resources
both ways. The term is added to each of the user's nodeSelectorTerms. */}}
{{- define "gcushare.classicAffinity" -}}
{{- $affinity := deepCopy (.Values.affinity | default (dict)) -}}
{{- $notDra := dict "key" "enflame.com/gcushare-mode" "operator" "NotIn" "values" (list "dra") -}}
{{- $nodeAffinity := get $affinity "nodeAffinity" | default (dict) -}}
{{- $required := get $nodeAffinity "requiredDuringSchedulingIgnoredDuringExecution" | default (dict) -}}
{{- $terms := get $required "nodeSelectorTerms" | default (list (dict)) -}}
{{- $withTerm := list -}}
{{- range $terms -}}
{{- $term := deepCopy . -}}
{{- $_ := set $term "matchExpressions" (append (get $term "matchExpressions" | default (list)) $notDra) -}}
{{- $withTerm = append $withTerm $term -}}
{{- end -}}
{{- $_ := set $required "nodeSelectorTerms" $withTerm -}}
{{- $_ := set $nodeAffinity "requiredDuringSchedulingIgnoredDuringExecution" $required -}}
{{- $_ := set $affinity "nodeAffinity" $nodeAffinity -}}
{{ toYaml $affinity }}
{{- end -}}

{{/* The DRA driver's node selector: the sharing label and the DRA mode. */}}
{{- define "gcushare.draNodeSelector" -}}
{{- $selector := merge (dict) (.Values.nodeSelector | default (dict)) -}}
{{- $_ := set $selector "enflame.com/gcushare" "true" -}}
{{- $_ := set $selector "enflame.com/gcushare-mode" "dra" -}}
{{ toYaml $selector }}
{{- end -}}
