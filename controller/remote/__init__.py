"""What both remotes, the MQTT link and the web page, share: the checks of what they send in
(inbound), what they are told of the table (payloads), and the control through which they
reach the daemon (control). Neither remote imports the other; both import this.
"""
